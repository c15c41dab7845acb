// Compiled as C++17 -pedantic -Werror: include/tigris.h must be usable from C++ alone.
#include "tigris.h"

int TigrisHeaderCxxProbe() {
  tigris_load_options options = TIGRIS_LOAD_OPTIONS_INIT;
  return options.version + static_cast<int>(TIGRIS_OK);
}
