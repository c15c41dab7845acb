// `tigris compile ... --emit-c DIR`: the firmware glue for a plan (issue 15 item 6,
// docs/memories.md "Firmware glue"). Writes DIR/NAME.h and DIR/NAME.c:
//  - NAME_plan: the .tgrs bytes as a const array, TGRS_PLAN_ALIGNMENT-aligned, in a
//    section named after the memory that holds the plan (NAME_PLAN_SECTION, overridable);
//  - per arena memory of the plan: NAME_ARENA_<MEMORY>_SIZE and _ALIGNMENT defines and an
//    enum entry NAME_ARENA_<MEMORY> whose value is the memory's index for tgrs_bind_arena;
// what a firmware includes instead of `xxd -i` plus hand-copied sizes.
#ifndef TIGRIS_CLI_EMIT_C_H_
#define TIGRIS_CLI_EMIT_C_H_

#include <string>

namespace tigris::cli {

// "model-v2.tgrs" -> "model_v2": a C identifier (letters, digits, '_'; never starting with a
// digit), from a plan's file name.
std::string CIdentifier(const std::string& text);

// Writes DIR/NAME.h and DIR/NAME.c for the plan `bytes` (verified here with the runtime's
// reader; `what` names them in messages). Returns the two paths written. Throws
// std::runtime_error naming the file that could not be written or the verifier's reason.
std::string WriteEmitC(const std::string& bytes, const std::string& what, const std::string& dir,
                       const std::string& name);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_EMIT_C_H_
