#include "tflite/tflite_loader.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tflite/importer.h"
#include "util/error.h"
#include "util/file_io.h"

namespace tigris::tflite_import {
namespace {

ir::Graph Load(const uint8_t* data, size_t size, const std::string& name) {
  const std::string what = "model '" + name + "'";
  if (size == 0) throw Error(Status::kEmptyModel, what + " is empty (0 bytes)");
  if (!IsTflite(data, size)) {
    throw Error(Status::kNotOnnx, what + " is not a TFLite FlatBuffer (no \"TFL3\" identifier)");
  }
  // The verifier bounds every offset, vector and string it follows, so nothing below reads
  // outside the bytes. A root offset past the end is a file cut short.
  uint32_t root = 0;
  std::memcpy(&root, data, sizeof(root));
  if (root >= size) {
    throw Error(Status::kTruncatedModel, what + " is truncated: its root table lies at byte " +
                                             std::to_string(root) + " of " + std::to_string(size));
  }
  flatbuffers::Verifier verifier(data, size);
  if (!tigris_tflite::VerifyModelBuffer(verifier)) {
    throw Error(Status::kInvalidModel,
                what +
                    " fails FlatBuffer verification against the TFLite schema (a table, "
                    "vector or string lies outside the file, or is misaligned): the file "
                    "is truncated or corrupt");
  }
  const tigris_tflite::Model& model = *tigris_tflite::GetModel(data);
  const auto* subgraphs = model.subgraphs();
  if (!subgraphs || subgraphs->size() == 0 || !subgraphs->Get(0)) {
    throw Error(Status::kInvalidModel, what + " has no subgraph");
  }
  if (subgraphs->size() > 1) {
    throw Error(Status::kInvalidModel,
                what + " has " + std::to_string(subgraphs->size()) +
                    " subgraphs; only single-subgraph models are supported (more subgraphs "
                    "are the bodies of control flow: IF, WHILE, CALL_ONCE)");
  }
  if (!model.buffers()) throw Error(Status::kInvalidModel, what + " has no buffer table");
  return ModelImporter(model, data, size, name).Run();
}

}  // namespace

bool IsTflite(const void* data, size_t size) {
  return data != nullptr && size >= 8 &&
         std::memcmp(static_cast<const uint8_t*>(data) + 4, "TFL3", 4) == 0;
}

bool FileIsTflite(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char head[8];
  return file.read(head, sizeof(head)) && IsTflite(head, sizeof(head));
}

ir::Graph LoadTfliteFile(const std::string& path) {
  std::string bytes;
  const std::string failed = ReadWholeFile(path, &bytes);
  if (!failed.empty()) {
    throw Error(Status::kIoError, "cannot read model file '" + path + "': " + failed);
  }
  return Load(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
              std::filesystem::path(path).stem().string());
}

ir::Graph LoadTfliteBytes(const void* data, size_t size, const std::string& name_hint) {
  if (data == nullptr && size != 0) {
    throw Error(Status::kInvalidArgument,
                "model bytes are NULL but size is " + std::to_string(size));
  }
  // A copy: the verifier checks alignment from the first byte, which the caller's pointer
  // need not have (operator new aligns for any scalar).
  const std::vector<uint8_t> copy(static_cast<const uint8_t*>(data),
                                  static_cast<const uint8_t*>(data) + size);
  return Load(copy.data(), copy.size(), name_hint);
}

}  // namespace tigris::tflite_import
