// Helpers shared by the C ABI implementation: the exception firewall and error messages.
#ifndef TIGRIS_API_STATUS_H_
#define TIGRIS_API_STATUS_H_

#include <cstring>
#include <memory>
#include <string>

#include "tigris.h"
#include "util/error.h"
#include "util/escape.h"

namespace tigris::api {

// Records `message` as the calling thread's last error (tigris_last_error).
void SetLastError(const std::string& message);
void ClearLastError();

// Runs `body`, translating every exception into a status and a message. The message goes
// to the thread's last error and, when `handle_error` is given, to that handle's slot.
// Nothing thrown inside libtigris ever crosses the C ABI.
template <typename Body>
tigris_status Guard(std::string* handle_error, Body&& body) {
  std::string message;
  tigris_status status = TIGRIS_OK;
  try {
    body();
    return TIGRIS_OK;
  } catch (const Error& e) {
    status = static_cast<tigris_status>(e.status());
    message = e.what();
  } catch (const std::bad_alloc&) {
    status = TIGRIS_ERR_OUT_OF_MEMORY;
    message = "out of memory";
  } catch (const std::exception& e) {
    status = TIGRIS_ERR_INTERNAL;
    message = std::string("internal error: ") + e.what();
  } catch (...) {
    status = TIGRIS_ERR_INTERNAL;
    message = "internal error: unknown exception";
  }
  // Messages quote names from the input (util/escape.h): no raw control bytes or invalid
  // UTF-8 leave the library.
  message = EscapeUntrusted(message);
  SetLastError(message);
  if (handle_error) *handle_error = message;
  return status;
}

// Throws kVersionMismatch naming `struct_name` unless 1 <= version <= latest.
void CheckStructVersion(int version, int latest, const char* struct_name);

// The body of every function that creates a handle: checks `out`, builds the Handle with
// `fill(handle)` inside the exception firewall, and stores it in *out only on success (NULL
// otherwise). Failure messages go to the thread and, when given, to `handle_error`.
template <typename Handle, typename Fill>
tigris_status CreateHandle(Handle** out, std::string* handle_error, const char* function,
                           Fill&& fill) {
  if (!out) {
    SetLastError(std::string(function) + ": out must not be NULL");
    return TIGRIS_ERR_INVALID_ARGUMENT;
  }
  *out = nullptr;
  auto handle = std::make_unique<Handle>();
  const tigris_status status = Guard(handle_error, [&] { fill(*handle); });
  if (status == TIGRIS_OK) *out = handle.release();
  return status;
}

// The body of every tigris_*_options_init: fills *opts with `defaults` (the struct's _INIT
// macro) for a version this library knows. `function` names the caller in messages.
// `size_of_version` gives the struct's size at a version: a caller built against an older
// header passes a shorter struct, and only that much of it is written.
template <typename Options>
tigris_status InitOptions(
    Options* opts, int version, int latest, const Options& defaults, const char* function,
    size_t (*size_of_version)(int) = [](int) { return sizeof(Options); }) {
  return Guard(nullptr, [&] {
    if (!opts) throw Error(Status::kInvalidArgument, std::string(function) + ": opts is NULL");
    CheckStructVersion(version, latest, function);
    std::memcpy(static_cast<void*>(opts), &defaults, size_of_version(version));
    opts->version = version;
  });
}

}  // namespace tigris::api

#endif  // TIGRIS_API_STATUS_H_
