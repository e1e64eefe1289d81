# CMake toolchain file: libparc for 64-bit ARM Linux, built with Debian's
# cross compiler (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross).  Used with
# -DPARCC_RUNTIME_ONLY=ON (CMakeLists.txt); tools/cross-check.py runs the
# programs it links under qemu-aarch64 (qemu-user).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
