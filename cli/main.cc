// The `tigris` command: a thin front end over the C ABI (include/tigris.h).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "args.h"
#include "commands.h"
#include "escape.h"
#include "tigris.h"

namespace {

const char kHelp[] =
    "usage: tigris [--version] [--help] COMMAND [ARGS]\n"
    "\n"
    "Compile ONNX and TFLite models under an SRAM budget into tiled execution plans for\n"
    "microcontrollers.\n"
    "\n"
    "commands:\n"
    "  analyze MODEL          load (.onnx or .tflite), normalize and report a model\n"
    "  compile MODEL          plan under the budgets and write a .tgrs plan\n"
    "  inspect PLAN.tgrs      verify a plan with the runtime's reader and print it\n"
    "  run PLAN.tgrs          run a plan on this machine with the C99 runtime\n"
    "\n"
    "Run 'tigris COMMAND --help' for the options of a command.\n"
    "Sizes accept bytes or K/M/G suffixes (256K, 1.5MiB); all JSON numbers are bytes.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kHelp, stderr);
    return 2;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (command == "--version" || command == "-V") {
    std::printf("tigris %s\n", tigris_version());
    if (tigris_version_number() != TIGRIS_VERSION_NUMBER) {
      std::fprintf(stderr, "tigris: warning: built against libtigris %d.%d.%d\n",
                   TIGRIS_VERSION_MAJOR, TIGRIS_VERSION_MINOR, TIGRIS_VERSION_PATCH);
    }
    return 0;
  }
  try {
    if (command == "analyze") return tigris::cli::RunAnalyze(argc, argv);
    if (command == "compile") return tigris::cli::RunCompile(argc, argv);
    if (command == "inspect") return tigris::cli::RunInspect(argc, argv);
    if (command == "run") return tigris::cli::RunRun(argc, argv);
    throw tigris::cli::UsageError("unknown command '" + command + "'");
  } catch (const tigris::cli::UsageError& e) {
    std::fprintf(stderr, "tigris: %s\nRun 'tigris --help' for usage.\n",
                 tigris::EscapeUntrusted(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    // The library never throws across its C ABI; this is the CLI's own failure. Its
    // message may quote an input file's bytes (a .npy header, a plan's name).
    std::fprintf(stderr, "tigris: error: %s\n", tigris::EscapeUntrusted(e.what()).c_str());
    return 1;
  }
}
