#include "args.h"

namespace tigris::cli {

Args::Args(std::vector<std::vector<std::string>> flags,
           std::vector<std::vector<std::string>> options) {
  for (const auto& spellings : flags) {
    for (const auto& s : spellings) flag_alias_[s] = spellings.front();
  }
  for (const auto& spellings : options) {
    for (const auto& s : spellings) option_alias_[s] = spellings.front();
  }
}

void Args::Parse(int argc, char** argv, int first) {
  bool only_positional = false;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_positional || arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    std::string value;
    bool has_inline_value = false;
    if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline_value = true;
    }
    if (auto f = flag_alias_.find(arg); f != flag_alias_.end()) {
      if (has_inline_value) throw UsageError("option " + arg + " takes no value");
      flags_set_[f->second] = true;
    } else if (auto o = option_alias_.find(arg); o != option_alias_.end()) {
      if (!has_inline_value) {
        if (i + 1 >= argc) throw UsageError("option " + arg + " needs a value");
        value = argv[++i];
      }
      values_[o->second].push_back(value);
    } else {
      throw UsageError("unknown option " + arg);
    }
  }
}

const std::vector<std::string>& Args::Values(const std::string& key) const {
  static const std::vector<std::string> kNone;
  auto it = values_.find(key);
  return it == values_.end() ? kNone : it->second;
}

}  // namespace tigris::cli
