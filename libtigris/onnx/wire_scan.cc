#include "onnx/wire_scan.h"

#include <string>

#include "util/error.h"

namespace tigris::onnx_import {
namespace {

// protobuf wire types (https://protobuf.dev/programming-guides/encoding/).
constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLengthDelimited = 2;
constexpr int kStartGroup = 3;
constexpr int kEndGroup = 4;
constexpr int kFixed32 = 5;

// Wire type each ModelProto field must use (onnx.proto3); -1 for unknown fields, which
// protobuf tolerates and so do we.
int ExpectedWireType(uint64_t field) {
  switch (field) {
    case 1:  // ir_version
    case 5:  // model_version
      return kVarint;
    case 2:   // producer_name
    case 3:   // producer_version
    case 4:   // domain
    case 6:   // doc_string
    case 7:   // graph
    case 8:   // opset_import
    case 14:  // metadata_props
    case 20:  // training_info
    case 25:  // functions
      return kLengthDelimited;
    default:
      return -1;
  }
}

class Scanner {
 public:
  Scanner(const uint8_t* data, size_t size, const char* what)
      : data_(data), size_(size), what_(what) {}

  void Run() {
    bool has_graph = false;
    while (pos_ < size_) {
      size_t field_start = pos_;
      uint64_t key = ReadVarint("field key");
      uint64_t field = key >> 3;
      int wire = static_cast<int>(key & 7);
      if (field == 0) NotOnnx(field_start, "field number 0");
      if (wire == kStartGroup || wire == kEndGroup || wire > kFixed32) {
        NotOnnx(field_start,
                "wire type " + std::to_string(wire) + " in field " + std::to_string(field));
      }
      int expected = ExpectedWireType(field);
      if (expected >= 0 && expected != wire) {
        NotOnnx(field_start, "ModelProto field " + std::to_string(field) + " has wire type " +
                                 std::to_string(wire) + ", expected " + std::to_string(expected));
      }
      if (field == 7) has_graph = true;
      switch (wire) {
        case kVarint:
          ReadVarint("field " + std::to_string(field));
          break;
        case kFixed64:
          Skip(8, field, field_start);
          break;
        case kFixed32:
          Skip(4, field, field_start);
          break;
        case kLengthDelimited: {
          uint64_t length = ReadVarint("length of field " + std::to_string(field));
          Skip(length, field, field_start);
          break;
        }
        default:
          break;
      }
    }
    if (!has_graph) {
      throw Error(Status::kNotOnnx, std::string(what_) +
                                        ": not an ONNX model (well-formed protobuf, but no "
                                        "ModelProto.graph field)");
    }
  }

 private:
  uint64_t ReadVarint(const std::string& what_field) {
    size_t start = pos_;
    uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos_ >= size_) {
        throw Error(Status::kTruncatedModel, std::string(what_) +
                                                 ": truncated model: " + what_field + " at byte " +
                                                 std::to_string(start) + " runs past the end (" +
                                                 std::to_string(size_) + " bytes)");
      }
      uint8_t byte = data_[pos_++];
      if (shift < 64) value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
      if (shift >= 63) break;  // a varint has at most 10 bytes
    }
    NotOnnx(start, "over-long varint in " + what_field);
  }

  void Skip(uint64_t length, uint64_t field, size_t field_start) {
    if (length > size_ - pos_) {
      throw Error(Status::kTruncatedModel,
                  std::string(what_) + ": truncated model: field " + std::to_string(field) +
                      (field == 7 ? " (graph)" : "") + " at byte " + std::to_string(field_start) +
                      " needs " + std::to_string(length) + " bytes but only " +
                      std::to_string(size_ - pos_) + " remain");
    }
    pos_ += static_cast<size_t>(length);
  }

  [[noreturn]] void NotOnnx(size_t offset, const std::string& why) {
    throw Error(Status::kNotOnnx, std::string(what_) + ": not an ONNX model (" + why + " at byte " +
                                      std::to_string(offset) + ")");
  }

  const uint8_t* data_;
  size_t size_;
  const char* what_;
  size_t pos_ = 0;
};

}  // namespace

void ScanModelWireFormat(const uint8_t* data, size_t size, const char* what) {
  if (size == 0) throw Error(Status::kEmptyModel, std::string(what) + ": model is empty (0 bytes)");
  Scanner(data, size, what).Run();
}

}  // namespace tigris::onnx_import
