# Shared by the scripts that check a reduced runtime build's object files
# (dtype_select/check_unreferenced.cmake, op_select/check_no_text.cmake).
#
# tigris_check_objects_report(<objects> <found> <failure> <success>): fails when fewer than
# 10 objects were given (the generator expression listing them went wrong, and a check
# over nothing would pass), or with `failure` and one line per entry of `found`; otherwise
# prints `success` and the object count.
function(tigris_check_objects_report objects found failure success)
  list(LENGTH objects count)
  if(count LESS 10)
    message(FATAL_ERROR "only ${count} objects given: ${objects}")
  endif()
  if(found)
    string(REPLACE ";" "\n  " found "${found}")
    message(FATAL_ERROR "${failure}:\n  ${found}")
  endif()
  message(STATUS "${success} (${count} objects)")
endfunction()
