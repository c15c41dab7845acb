#include "model_options.h"

#include <cstdio>
#include <cstdlib>

namespace tigris::cli {
namespace {

int64_t ParsePositive(const std::string& text, const std::string& what) {
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v <= 0) {
    throw UsageError(what + " must be a positive integer, got '" + text + "'");
  }
  return v;
}

}  // namespace

std::vector<std::vector<std::string>> ModelOptionSpellings() {
  return {{"--dim"}, {"--input-shape"}, {"--batch"}};
}

const char* ModelOptionsHelp() {
  return "  --dim NAME=N            pin the symbolic dimension NAME to N (repeatable)\n"
         "  --batch N               value for symbolic dimensions not pinned by --dim\n"
         "                          (default 1)\n"
         "  --input-shape NAME=DxDx...  override the shape of graph input NAME\n";
}

tigris_model* LoadModel(const std::string& path, const Args& args, tigris_status* status) {
  tigris_load_options options = TIGRIS_LOAD_OPTIONS_INIT;

  std::vector<std::string> dim_names;
  std::vector<tigris_dim_binding> dims;
  for (const std::string& spec : args.Values("--dim")) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--dim expects NAME=N, got " + spec);
    dim_names.push_back(spec.substr(0, eq));
    dims.push_back({nullptr, ParsePositive(spec.substr(eq + 1), "--dim " + spec)});
  }
  for (size_t i = 0; i < dims.size(); ++i) dims[i].name = dim_names[i].c_str();
  options.dims = dims.data();
  options.num_dims = dims.size();

  if (!args.Values("--batch").empty()) {
    options.default_dim = ParsePositive(args.Values("--batch").back(), "--batch");
  }

  std::vector<std::string> shape_names;
  std::vector<std::vector<int64_t>> shape_dims;
  for (const std::string& spec : args.Values("--input-shape")) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw UsageError("--input-shape expects NAME=1x3x96x96, got " + spec);
    }
    shape_names.push_back(spec.substr(0, eq));
    std::vector<int64_t> d;
    std::string rest = spec.substr(eq + 1) + "x";
    size_t start = 0;
    for (size_t x = rest.find('x'); x != std::string::npos; x = rest.find('x', start)) {
      d.push_back(ParsePositive(rest.substr(start, x - start), "--input-shape " + spec));
      start = x + 1;
    }
    shape_dims.push_back(d);
  }
  std::vector<tigris_input_shape> shapes;
  for (size_t i = 0; i < shape_names.size(); ++i) {
    shapes.push_back({shape_names[i].c_str(), shape_dims[i].size(), shape_dims[i].data()});
  }
  options.input_shapes = shapes.data();
  options.num_input_shapes = shapes.size();

  tigris_model* model = nullptr;
  *status = tigris_load(&model, path.c_str(), &options);
  if (*status != TIGRIS_OK) {
    PrintLibraryError(*status, tigris_last_error());
    return nullptr;
  }
  return model;
}

void PrintLibraryError(tigris_status status, const char* message) {
  std::fprintf(stderr, "tigris: error: %s [%s]\n", message, tigris_status_name(status));
}

}  // namespace tigris::cli
