# cmake -DOBJECTS=a.o|b.o|... -DFORBIDDEN=<regex> -P check_no_text.cmake
# Fails when an object file holds a printable string matching FORBIDDEN: a build with
# TGRS_WITH_MESSAGES 0 (tgrs_op_select.h) promises that no rule's sentence reaches it.
# runtime.with_messages_has_sentences runs it on a build with messages and expects it to
# fail: the control that FORBIDDEN names phrases the verifier does write.
string(REPLACE "|" ";" objects "${OBJECTS}")
set(found "")
foreach(object IN LISTS objects)
  file(STRINGS "${object}" texts REGEX "${FORBIDDEN}")
  foreach(text IN LISTS texts)
    list(APPEND found "${object}: ${text}")
  endforeach()
endforeach()
list(LENGTH objects count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} objects given: ${OBJECTS}")
endif()
if(found)
  string(REPLACE ";" "\n  " found "${found}")
  message(FATAL_ERROR "sentences left in a build without messages:\n  ${found}")
endif()
message(STATUS "no object holds text matching ${FORBIDDEN} (${count} objects)")
