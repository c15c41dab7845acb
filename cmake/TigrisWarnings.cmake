# Warning flags shared by every first-party target. Third-party headers are included as
# SYSTEM by their imported targets, so -Werror only ever trips on our own code.
function(tigris_set_warnings target)
  get_target_property(_type ${target} TYPE)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                              -Wno-unused-parameter -Werror>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
                            -Wmissing-prototypes -Werror>)
endfunction()
