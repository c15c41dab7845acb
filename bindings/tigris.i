/* tigris.i: the one SWIG interface over include/tigris.h, shared by every SWIG binding.
 *
 * The C ABI is wrapped as it is (functions, enums, option structs); the typemaps below only
 * teach SWIG the three C idioms it cannot guess (see the conventions in tigris.h):
 *   - out-handles   `T** out`: created handles come back as extra return values;
 *   - byte buffers  `(const void* data, size_t size)` in, `(void** out_bytes, size_t*
 *                   out_size)` out (copied into a language byte string, then tigris_free);
 *   - status codes  returned as plain integers: each language's idiomatic layer turns a
 *                   non-zero status into its own error (tigris.Error in Python), reading
 *                   the message from tigris_last_error / *_last_error.
 * Language-specific typemaps sit in #ifdef SWIG<LANG> blocks; the module name is given on
 * the swig command line (-module) by each language's build. */
%module tigris_c

%{
#include <stdlib.h>
#include <string.h>
#include "tigris.h"
%}

%include <stdint.i>
%include <typemaps.i>

/* The export macro means nothing to SWIG. */
#define TIGRIS_API

/* ---- out-handles: tigris_load(&model, ...) -> (status, model) ------------------------- */
#ifdef SWIGPYTHON
%typemap(in, numinputs = 0) SWIGTYPE** out($*1_ltype tmp = NULL) { $1 = &tmp; }
%typemap(argout) SWIGTYPE** out {
  $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(SWIG_as_voidptr(*$1),
                                                                 $*1_descriptor, 0));
}

/* tigris_parse_size(&bytes, text) -> (status, bytes) */
%apply uint64_t* OUTPUT { uint64_t* out_bytes };

/* ---- byte buffers in: anything with the buffer protocol (bytes, bytearray, memoryview) - */
%typemap(in) (const void* data, size_t size)(Py_buffer view),
             (const void* plan, size_t plan_size)(Py_buffer view) {
  if (PyObject_GetBuffer($input, &view, PyBUF_CONTIG_RO) != 0) SWIG_fail;
  $1 = view.buf;
  $2 = (size_t)view.len;
}
%typemap(freearg) (const void* data, size_t size), (const void* plan, size_t plan_size) {
  if (view$argnum.obj) PyBuffer_Release(&view$argnum);
}

/* ---- byte buffers out: tigris_emit(&bytes, &size, plan) -> (status, bytes) ------------- */
%typemap(in, numinputs = 0) (void** out_bytes, size_t* out_size)(void* bytes = NULL,
                                                                  size_t size = 0) {
  $1 = &bytes;
  $2 = &size;
}
%typemap(argout) (void** out_bytes, size_t* out_size) {
  PyObject* blob = *$1 ? PyBytes_FromStringAndSize((const char*)*$1, (Py_ssize_t)*$2)
                       : (Py_INCREF(Py_None), Py_None);
  tigris_free(*$1);
  if (!blob) SWIG_fail;
  $result = SWIG_Python_AppendOutput($result, blob);
}
#endif /* SWIGPYTHON */

/* Loading with dimension bindings needs C arrays of structs whose names must outlive the
 * call; this helper builds them from one "name=value,name=value" text for the duration of
 * the call, so no binding has to manage C arrays of its own. */
%inline %{
tigris_status tigris_load_with(tigris_model** out, const char* path, const void* data,
                               size_t size, int64_t default_dim, const char* external_data_dir,
                               const char* dims) {
  tigris_load_options options;
  tigris_status status = tigris_load_options_init(&options, TIGRIS_LOAD_OPTIONS_VERSION);
  if (status != TIGRIS_OK) return status;
  options.default_dim = default_dim;
  options.external_data_dir = (external_data_dir && *external_data_dir) ? external_data_dir : NULL;
  size_t count = 0;
  char* text = NULL;
  tigris_dim_binding* bindings = NULL;
  if (dims && *dims) {
    count = 1;
    for (const char* c = dims; *c; ++c) count += (*c == ',');
    text = (char*)malloc(strlen(dims) + 1);
    bindings = (tigris_dim_binding*)calloc(count, sizeof(tigris_dim_binding));
    if (!text || !bindings) {
      free(text);
      free(bindings);
      return TIGRIS_ERR_OUT_OF_MEMORY;
    }
    strcpy(text, dims);
    char* item = text;
    for (size_t i = 0; i < count; ++i) {
      char* next = strchr(item, ',');
      if (next) *next = '\0';
      char* eq = strchr(item, '=');
      if (eq) {
        *eq = '\0';
        bindings[i].value = strtoll(eq + 1, NULL, 10);
      }
      bindings[i].name = item;
      item = next ? next + 1 : item + strlen(item);
    }
    options.dims = bindings;
    options.num_dims = count;
  }
  if (path) {
    status = tigris_load(out, path, &options);
  } else {
    status = tigris_load_from_memory(out, data, size, &options);
  }
  free(bindings);
  free(text);
  return status;
}
%}

/* String members are library-owned (outputs) or must outlive a call (inputs): assigning one
 * from a binding would hand C a copy nobody frees, so they are read-only here. Loading with
 * names goes through tigris_load_with above. */
%immutable tigris_op_info::type;
%immutable tigris_op_info::name;
%immutable tigris_op_info::fused_activation;
%immutable tigris_tensor_info::name;
%immutable tigris_dim_binding::name;
%immutable tigris_input_shape::name;
%immutable tigris_load_options::external_data_dir;

%include "tigris.h"
