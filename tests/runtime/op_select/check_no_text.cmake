# cmake -DOBJECTS=a.o|b.o|... -DFORBIDDEN=<regex> -DOBJCOPY=<objcopy> -DWORK=<dir>
#       -P check_no_text.cmake
# Fails when an object file holds a printable string matching FORBIDDEN outside its debug
# information: a build with TGRS_WITH_MESSAGES 0 (tgrs_op_select.h) promises that no rule's
# sentence and no status name reaches it. The debug sections are stripped first because
# they name every enumerator (TGRS_ERR_...) whatever the build keeps.
# runtime.with_messages_has_sentences runs it on a build with messages and expects it to
# fail: the control that FORBIDDEN names text the runtime does hold.
include("${CMAKE_CURRENT_LIST_DIR}/../check_objects.cmake")
string(REPLACE "|" ";" objects "${OBJECTS}")
file(MAKE_DIRECTORY "${WORK}")
set(found "")
set(index 0)
foreach(object IN LISTS objects)
  set(stripped "${WORK}/${index}.o")
  math(EXPR index "${index} + 1")
  execute_process(COMMAND "${OBJCOPY}" --strip-debug "${object}" "${stripped}"
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${OBJCOPY} --strip-debug ${object} failed: ${result}")
  endif()
  file(STRINGS "${stripped}" texts REGEX "${FORBIDDEN}")
  foreach(text IN LISTS texts)
    list(APPEND found "${object}: ${text}")
  endforeach()
endforeach()
tigris_check_objects_report("${objects}" "${found}" "text left in a build without messages"
                            "no object holds text matching ${FORBIDDEN}")
