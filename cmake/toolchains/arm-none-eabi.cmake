# CMake toolchain file for bare-metal Arm Cortex-M with Debian's GNU Arm Embedded toolchain
# (packages gcc-arm-none-eabi, libnewlib-arm-none-eabi; scripts/setup.sh installs them).
#
#   cmake -S runtime/targets/mps2 -B build-m4 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi.cmake -DTIGRIS_MCU_CPU=cortex-m4
#
# TIGRIS_MCU_CPU picks the core and its floating-point unit (hard-float ABI, so float32
# kernels use the FPU):
#   cortex-m4  FPv4-SP (single precision), as on STM32F4 / nRF52 / the MPS2 AN386 image
#   cortex-m7  FPv5 with double precision, as on STM32F7/H7 / the MPS2 AN500 image
#   cortex-m0plus, cortex-m3  no FPU (soft-float)
# Everything is built for size (-Os) with one section per function and per object so the
# linker's --gc-sections keeps only what a firmware reaches (docs/cortex-m.md).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(TIGRIS_MCU_CPU "cortex-m4" CACHE STRING "Cortex-M core: cortex-m0plus, cortex-m3, cortex-m4, cortex-m7")
set_property(CACHE TIGRIS_MCU_CPU PROPERTY STRINGS cortex-m0plus cortex-m3 cortex-m4 cortex-m7)

find_program(TIGRIS_ARM_GCC arm-none-eabi-gcc)
if(NOT TIGRIS_ARM_GCC)
  message(FATAL_ERROR "arm-none-eabi-gcc not found: run scripts/setup.sh "
                      "(Debian packages gcc-arm-none-eabi and libnewlib-arm-none-eabi)")
endif()
get_filename_component(_tigris_arm_bin "${TIGRIS_ARM_GCC}" DIRECTORY)
set(CMAKE_C_COMPILER "${_tigris_arm_bin}/arm-none-eabi-gcc")
set(CMAKE_ASM_COMPILER "${_tigris_arm_bin}/arm-none-eabi-gcc")
set(CMAKE_AR "${_tigris_arm_bin}/arm-none-eabi-ar" CACHE FILEPATH "")
set(CMAKE_RANLIB "${_tigris_arm_bin}/arm-none-eabi-ranlib" CACHE FILEPATH "")
set(CMAKE_OBJCOPY "${_tigris_arm_bin}/arm-none-eabi-objcopy" CACHE FILEPATH "")
set(CMAKE_SIZE "${_tigris_arm_bin}/arm-none-eabi-size" CACHE FILEPATH "")
set(CMAKE_NM "${_tigris_arm_bin}/arm-none-eabi-nm" CACHE FILEPATH "")

# The compiler checks cannot link a program without a board's startup code and linker script.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

if(TIGRIS_MCU_CPU STREQUAL "cortex-m4")
  set(_tigris_cpu_flags "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
elseif(TIGRIS_MCU_CPU STREQUAL "cortex-m7")
  set(_tigris_cpu_flags "-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard")
elseif(TIGRIS_MCU_CPU STREQUAL "cortex-m3" OR TIGRIS_MCU_CPU STREQUAL "cortex-m0plus")
  set(_tigris_cpu_flags "-mcpu=${TIGRIS_MCU_CPU} -mthumb -mfloat-abi=soft")
else()
  message(FATAL_ERROR "TIGRIS_MCU_CPU='${TIGRIS_MCU_CPU}' is not one of "
                      "cortex-m0plus, cortex-m3, cortex-m4, cortex-m7")
endif()

# -ffp-contract=off: never fuse a*b+c into one FMA, so float32 results are the bytes the
# host runtime computes (the Cortex-M7 FPU has VFMA; x86-64 builds do not use FMA either).
set(CMAKE_C_FLAGS_INIT "${_tigris_cpu_flags} -ffunction-sections -fdata-sections -ffp-contract=off")
set(CMAKE_ASM_FLAGS_INIT "${_tigris_cpu_flags}")
# MinSizeRel adds -Os -DNDEBUG; -g costs no target bytes and lets addr2line name a fault.
set(CMAKE_C_FLAGS_MINSIZEREL_INIT "-g")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_tigris_cpu_flags} -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
