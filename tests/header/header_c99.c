/* Compiled as -std=c99 -pedantic -Werror: include/tigris.h must be valid C99 alone. */
#include "tigris.h"

/* Touch the types so an unused-declaration mistake in the header shows up. */
int tigris_header_c99_probe(void);
int tigris_header_c99_probe(void) {
  tigris_load_options options = TIGRIS_LOAD_OPTIONS_INIT;
  tigris_op_info op;
  op.version = TIGRIS_OP_INFO_VERSION;
  return options.version + op.version + (int)TIGRIS_OK;
}
