// tigris_version, tigris_version_number.
#include "tigris.h"

#define TIGRIS_STR2(x) #x
#define TIGRIS_STR(x) TIGRIS_STR2(x)

extern "C" {

TIGRIS_API const char* tigris_version(void) {
  return TIGRIS_STR(TIGRIS_VERSION_MAJOR) "." TIGRIS_STR(TIGRIS_VERSION_MINOR) "." TIGRIS_STR(
      TIGRIS_VERSION_PATCH);
}

TIGRIS_API unsigned tigris_version_number(void) { return TIGRIS_VERSION_NUMBER; }

}  // extern "C"
