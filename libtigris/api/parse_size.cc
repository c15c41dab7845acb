// tigris_parse_size: the C face of util/size_parse.h.
#include "api/status.h"
#include "util/size_parse.h"

extern "C" {

TIGRIS_API tigris_status tigris_parse_size(uint64_t* out_bytes, const char* text) {
  return tigris::api::Guard(nullptr, [&] {
    if (!out_bytes || !text) {
      throw tigris::Error(tigris::Status::kInvalidArgument,
                          "tigris_parse_size: out_bytes and text must not be NULL");
    }
    *out_bytes = tigris::ParseSize(text);
  });
}

}  // extern "C"
