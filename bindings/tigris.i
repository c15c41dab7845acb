/* tigris.i: the one SWIG interface over include/tigris.h, shared by every SWIG binding.
 *
 * The C ABI is wrapped as it is (functions, enums, option structs); the typemaps below only
 * teach SWIG the three C idioms it cannot guess (see the conventions in tigris.h):
 *   - out-handles   `T** out`: created handles come back as extra return values;
 *   - byte buffers  `(const void* data, size_t size)` in, `(void** out_bytes, size_t*
 *                   out_size)` out (copied into a language byte string, then tigris_free);
 *   - status codes  returned as plain integers: each language's idiomatic layer turns a
 *                   non-zero status into its own error (tigris.Error in Python, *tigris.Error
 *                   in Go, TigrisException in C#), reading the message from
 *                   tigris_last_error / *_last_error.
 * Language-specific typemaps sit in #ifdef SWIGPYTHON / SWIGCSHARP blocks; the
 * module name is given on the swig command line (-module) by each language's build
 * (bindings/python/CMakeLists.txt,
 * bindings/csharp/CMakeLists.txt; docs/bindings.md). */
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
/* ---- running a plan: tigris_plan_run(plan, options, inputs, n, outputs, m, stats) ------
 * inputs:  a sequence of (dtype, buffer) pairs, one per graph input, read for the call;
 * outputs: a sequence of (dtype, writable buffer) pairs the run writes into.
 * tigris/_model.py (Plan.run) builds both from NumPy arrays. */
%define TIGRIS_PY_RUN_IOS(IOS, BUFFER_FLAGS)
%typemap(in) IOS (tigris_run_io* ios = NULL, Py_buffer* views = NULL, Py_ssize_t count = 0) {
  PyObject* seq = PySequence_Fast($input, "expected a sequence of (dtype, buffer) pairs");
  if (!seq) SWIG_fail;
  count = PySequence_Fast_GET_SIZE(seq);
  ios = (tigris_run_io*)calloc(count ? (size_t)count : 1, sizeof *ios);
  views = (Py_buffer*)calloc(count ? (size_t)count : 1, sizeof *views);
  if (!ios || !views) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < count; ++i) {
    long dtype;
    PyObject* buffer;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "lO", &dtype, &buffer) ||
        PyObject_GetBuffer(buffer, &views[i], BUFFER_FLAGS) != 0) {
      count = i; /* release only the views taken */
      Py_DECREF(seq);
      SWIG_fail;
    }
    ios[i].version = TIGRIS_RUN_IO_VERSION;
    ios[i].dtype = (tigris_dtype)dtype;
    ios[i].data = views[i].buf;
    ios[i].size = (size_t)views[i].len;
  }
  Py_DECREF(seq);
  $1 = ios;
  $2 = (size_t)count;
}
%typemap(freearg) IOS {
  for (Py_ssize_t i = 0; views$argnum && i < count$argnum; ++i) PyBuffer_Release(&views$argnum[i]);
  free(views$argnum);
  free(ios$argnum);
}
%enddef
TIGRIS_PY_RUN_IOS((const tigris_run_io* inputs, size_t num_inputs), PyBUF_CONTIG_RO)
TIGRIS_PY_RUN_IOS((tigris_run_io* outputs, size_t num_outputs), PyBUF_CONTIG)
#endif /* SWIGPYTHON */

/* ---- C# (swig -csharp -namespace Tigris -dllimport tigris_csharp): the generated layer is
 * internal to Tigris.dll; bindings/csharp/src puts SafeHandles and exceptions on top. ---- */
#ifdef SWIGCSHARP
%pragma(csharp) moduleclassmodifiers = "internal class"
%pragma(csharp) imclassclassmodifiers = "internal class"
%typemap(csclassmodifiers) SWIGTYPE, SWIGTYPE *, SWIGTYPE &, SWIGTYPE &&, SWIGTYPE [],
                           SWIGTYPE (CLASS::*) "internal class"
%typemap(csclassmodifiers) enum SWIGTYPE "internal enum"

/* out-handles and tigris_emit's buffer: `out IntPtr`; Tigris.*Handle (SafeHandles) own
 * what comes back. */
%typemap(ctype) SWIGTYPE** out, void** out_bytes "void**"
%typemap(imtype) SWIGTYPE** out, void** out_bytes "out global::System.IntPtr"
%typemap(cstype) SWIGTYPE** out, void** out_bytes "out global::System.IntPtr"
%typemap(csin) SWIGTYPE** out, void** out_bytes "out $csinput"
%typemap(in) SWIGTYPE** out, void** out_bytes %{ $1 = ($1_ltype)$input; %}

/* Sizes out are 64-bit (`out ulong`): SWIG's C# size_t is a 32-bit uint. */
%apply unsigned long long* OUTPUT { uint64_t* out_bytes };
%typemap(ctype) size_t* out_size "uint64_t*"
%typemap(imtype) size_t* out_size "out ulong"
%typemap(cstype) size_t* out_size "out ulong"
%typemap(csin) size_t* out_size "out $csinput"
%typemap(in) size_t* out_size (size_t size = 0) %{ $1 = &size; %}
%typemap(argout) size_t* out_size %{ *$input = (uint64_t)size$argnum; %}

/* Handles in: the SafeHandle itself, so it stays alive (and is not released) during the
 * call. The *_free functions take the non-const pointer as a raw IntPtr: they run inside
 * SafeHandle.ReleaseHandle, when the SafeHandle can no longer be marshalled. */
%define TIGRIS_CSHARP_HANDLE(CTYPE, CSHANDLE)
%typemap(ctype) const CTYPE* "void*"
%typemap(imtype) const CTYPE* "Tigris.CSHANDLE"
%typemap(cstype) const CTYPE* "Tigris.CSHANDLE"
%typemap(csin) const CTYPE* "$csinput"
%typemap(in) const CTYPE* %{ $1 = ($1_ltype)$input; %}
%typemap(ctype) CTYPE* "void*"
%typemap(imtype) CTYPE* "global::System.IntPtr"
%typemap(cstype) CTYPE* "global::System.IntPtr"
%typemap(csin) CTYPE* "$csinput"
%typemap(in) CTYPE* %{ $1 = ($1_ltype)$input; %}
%enddef
TIGRIS_CSHARP_HANDLE(tigris_model, ModelHandle)
TIGRIS_CSHARP_HANDLE(tigris_analysis, AnalysisHandle)
TIGRIS_CSHARP_HANDLE(tigris_execution_plan, PlanHandle)

/* tigris_free(void*): the IntPtr tigris_emit handed out. */
%typemap(ctype) void* bytes "void*"
%typemap(imtype) void* bytes "global::System.IntPtr"
%typemap(cstype) void* bytes "global::System.IntPtr"
%typemap(csin) void* bytes "$csinput"
%typemap(in) void* bytes %{ $1 = $input; %}

/* byte buffers in: a byte[] pinned by the marshaller for the call (the library copies). */
%typemap(ctype) const void* data "const void*"
%typemap(imtype) const void* data "byte[]"
%typemap(cstype) const void* data "byte[]"
%typemap(csin) const void* data "$csinput"
%typemap(in) const void* data %{ $1 = ($1_ltype)$input; %}
#endif /* SWIGCSHARP */

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

/* Planning with the string options whose text must outlive the call only: persistent state
 * pairs ("IN=OUT[,IN2=OUT2...]", tigris_plan_options.state) and placement rules (rules_yaml
 * and rules_source), with a target description (tigris_plan_for_target) when target_yaml
 * is given. The binding passes them here instead of assigning the members (read-only
 * below); NULL or "" leaves one unset. */
%inline %{
tigris_status tigris_plan_with(tigris_execution_plan** out, const tigris_model* model,
                               tigris_plan_options* options, const char* state,
                               const char* target_yaml, const char* target_source,
                               const char* rules_yaml, const char* rules_source) {
  if (!options || options->version < 3) {
    return target_yaml ? tigris_plan_for_target(out, model, options, target_yaml, target_source)
                       : tigris_plan(out, model, options);
  }
  const char* saved_state = options->state;
  const char* saved_rules = options->rules_yaml;
  const char* saved_source = options->rules_source;
  options->state = (state && *state) ? state : NULL;
  options->rules_yaml = (rules_yaml && *rules_yaml) ? rules_yaml : NULL;
  options->rules_source = rules_source;
  tigris_status status =
      target_yaml ? tigris_plan_for_target(out, model, options, target_yaml, target_source)
                  : tigris_plan(out, model, options);
  options->state = saved_state;
  options->rules_yaml = saved_rules;
  options->rules_source = saved_source;
  return status;
}
%}

/* The arrays inside a tigris_tensor_info, element by element: SWIG languages see its
 * pointer members as opaque. Out-of-range indices read as 0. */
%inline %{
int64_t tigris_tensor_info_dim(const tigris_tensor_info* info, size_t i) {
  return (info && info->shape && i < info->rank) ? info->shape[i] : 0;
}
float tigris_tensor_info_scale(const tigris_tensor_info* info, size_t i) {
  return (info && info->scales && i < info->num_scales) ? info->scales[i] : 0.0f;
}
int32_t tigris_tensor_info_zero_point(const tigris_tensor_info* info, size_t i) {
  return (info && info->zero_points && i < info->num_scales) ? info->zero_points[i] : 0;
}
%}

/* String members are library-owned (outputs) or must outlive a call (inputs): assigning one
 * from a binding would hand C a copy nobody frees, so they are read-only here. Loading with
 * names goes through tigris_load_with above, planning with state through
 * tigris_plan_with. */
%immutable tigris_op_info::type;
%immutable tigris_op_info::name;
%immutable tigris_op_info::fused_activation;
%immutable tigris_tensor_info::name;
%immutable tigris_dim_binding::name;
%immutable tigris_input_shape::name;
%immutable tigris_load_options::external_data_dir;
%immutable tigris_plan_options::state;
%immutable tigris_plan_options::rules_yaml;
%immutable tigris_plan_options::rules_source;

%include "tigris.h"
