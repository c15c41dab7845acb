// tigris_load, tigris_load_from_memory, tigris_load_options_init, tigris_model_free.
#include <memory>

#include "api/model.h"
#include "api/status.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "tflite/tflite_loader.h"

namespace tigris::api {
namespace {

onnx_import::LoadOptions ToLoadOptions(const tigris_load_options* options) {
  onnx_import::LoadOptions out;
  if (!options) return out;
  CheckStructVersion(options->version, TIGRIS_LOAD_OPTIONS_VERSION, "tigris_load_options");
  if (options->default_dim < 0) {
    throw Error(Status::kInvalidArgument, "tigris_load_options.default_dim must be >= 0");
  }
  out.default_dim = options->default_dim;
  if (options->num_dims && !options->dims) {
    throw Error(Status::kInvalidArgument, "tigris_load_options.dims is NULL but num_dims > 0");
  }
  for (size_t i = 0; i < options->num_dims; ++i) {
    const tigris_dim_binding& b = options->dims[i];
    if (!b.name || b.value <= 0) {
      throw Error(Status::kInvalidArgument, "tigris_load_options.dims[" + std::to_string(i) +
                                                "] needs a name and a positive value");
    }
    out.dims[b.name] = b.value;
  }
  if (options->num_input_shapes && !options->input_shapes) {
    throw Error(Status::kInvalidArgument,
                "tigris_load_options.input_shapes is NULL but num_input_shapes > 0");
  }
  for (size_t i = 0; i < options->num_input_shapes; ++i) {
    const tigris_input_shape& s = options->input_shapes[i];
    if (!s.name || (s.rank && !s.dims)) {
      throw Error(Status::kInvalidArgument, "tigris_load_options.input_shapes[" +
                                                std::to_string(i) + "] needs a name and dims");
    }
    ir::Shape shape(s.dims, s.dims + s.rank);
    for (int64_t d : shape) {
      if (d <= 0) {
        throw Error(Status::kInvalidArgument,
                    "input shape for '" + std::string(s.name) + "' has a non-positive dimension");
      }
    }
    out.input_shapes[s.name] = shape;
  }
  if (options->external_data_dir) out.external_data_dir = options->external_data_dir;
  return out;
}

// A .tflite states every shape; the ONNX-only options would silently do nothing.
void CheckTfliteOptions(const tigris_load_options* options) {
  const onnx_import::LoadOptions o = ToLoadOptions(options);
  if (!o.dims.empty() || !o.input_shapes.empty() || !o.external_data_dir.empty()) {
    throw Error(Status::kInvalidArgument,
                "symbolic dims, input shapes and external data apply to ONNX models; this "
                "is a TFLite model, whose shapes are fixed in the file");
  }
}

template <typename LoadFn>
tigris_status LoadAndNormalize(tigris_model** out, LoadFn&& load) {
  return CreateHandle(out, nullptr, "tigris_load", [&](tigris_model& model) {
    model.graph = load();
    passes::Normalize(model.graph);
  });
}

}  // namespace
}  // namespace tigris::api

using tigris::Error;
using tigris::Status;

extern "C" {

TIGRIS_API tigris_status tigris_load_options_init(tigris_load_options* opts, int version) {
  return tigris::api::InitOptions(opts, version, TIGRIS_LOAD_OPTIONS_VERSION,
                                  tigris_load_options TIGRIS_LOAD_OPTIONS_INIT,
                                  "tigris_load_options_init");
}

TIGRIS_API tigris_status tigris_load(tigris_model** out, const char* path,
                                     const tigris_load_options* options) {
  return tigris::api::LoadAndNormalize(out, [&] {
    if (!path) throw Error(Status::kInvalidArgument, "tigris_load: path must not be NULL");
    // The format is chosen by content (TFLite's "TFL3" identifier), not by file name.
    if (tigris::tflite_import::FileIsTflite(path)) {
      tigris::api::CheckTfliteOptions(options);
      return tigris::tflite_import::LoadTfliteFile(path);
    }
    return tigris::onnx_import::LoadOnnxFile(path, tigris::api::ToLoadOptions(options));
  });
}

TIGRIS_API tigris_status tigris_load_from_memory(tigris_model** out, const void* data, size_t size,
                                                 const tigris_load_options* options) {
  return tigris::api::LoadAndNormalize(out, [&] {
    if (!data && size) {
      throw Error(Status::kInvalidArgument, "tigris_load_from_memory: data is NULL");
    }
    if (tigris::tflite_import::IsTflite(data, size)) {
      tigris::api::CheckTfliteOptions(options);
      return tigris::tflite_import::LoadTfliteBytes(data, size);
    }
    return tigris::onnx_import::LoadOnnxBytes(data, size, tigris::api::ToLoadOptions(options));
  });
}

TIGRIS_API void tigris_model_free(tigris_model* model) { delete model; }

TIGRIS_API const char* tigris_model_last_error(const tigris_model* model) {
  return model ? model->last_error.c_str() : "";
}

}  // extern "C"
