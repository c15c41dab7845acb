#include "support/test_env.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tigris::testing {
namespace {

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::string(v) : fallback;
}

}  // namespace

std::string ModelsDir() { return EnvOr("TIGRIS_MODELS_DIR", TIGRIS_DEFAULT_MODELS_DIR); }

std::string SharedOnnxModel(const std::string& file) { return ModelsDir() + "/onnx/" + file; }

std::vector<std::string> SharedOnnxModels() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(ModelsDir() + "/onnx", ec)) {
    if (entry.path().extension() == ".onnx") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string BuildDir() { return EnvOr("TIGRIS_BUILD_DIR", TIGRIS_DEFAULT_BUILD_DIR); }
std::string SourceDir() { return EnvOr("TIGRIS_SOURCE_DIR", TIGRIS_DEFAULT_SOURCE_DIR); }
std::string GeneratedModelsDir() { return BuildDir() + "/test-models"; }
std::string Python() { return EnvOr("TIGRIS_PYTHON", TIGRIS_DEFAULT_PYTHON); }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace tigris::testing
