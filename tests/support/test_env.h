// Where tests find things: the shared real-world models, generated models (int8 QDQ
// variants, synthetic graphs) and the built binaries. The defaults are the configured
// paths (tests/CMakeLists.txt); environment variables of the same names override them.
#ifndef TIGRIS_TESTS_SUPPORT_TEST_ENV_H_
#define TIGRIS_TESTS_SUPPORT_TEST_ENV_H_

#include <string>
#include <vector>

namespace tigris::testing {

// ../shared/models (TIGRIS_MODELS_DIR).
std::string ModelsDir();
// Path of a shared ONNX model, e.g. SharedOnnxModel("mnist8.onnx").
std::string SharedOnnxModel(const std::string& file);
// Every *.onnx in ModelsDir()/onnx, sorted by name.
std::vector<std::string> SharedOnnxModels();
// The build folder (TIGRIS_BUILD_DIR).
std::string BuildDir();
// The source folder (TIGRIS_SOURCE_DIR).
std::string SourceDir();
// Folder of generated test models (BuildDir()/test-models), made by tests/models/.
std::string GeneratedModelsDir();
// The project's Python with onnx/onnxruntime/numpy (TIGRIS_PYTHON).
std::string Python();
// Reads a whole file; fails the current test (and returns "") when it cannot.
std::string ReadFile(const std::string& path);

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_TEST_ENV_H_
