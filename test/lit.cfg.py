# LIT configuration for parcc: substitutions shared by every test folder.
#
# Composed substitutions in the manner of OpenMP's runtime tests:
#   %parcc            the compiler under test (back end: the runtime's C compiler)
#   %parcc-clang      the compiler under test with clang-19 as back end
#   %parcc-path       the compiler's executable alone (for CC=, CMAKE_C_COMPILER=)
#   %cc-runtime       compile and link hand-lowered C against libparc
#   %runtime-lib-dir  the build tree's lib/, where libparc*.a are
#   %abi-names        the names of parc_abi.h that parcc refuses, as built
#   %run-1 / %run-4   run a program at PARC_NPROCS=1 / 4 (with a time limit)
#   %FileCheck, %not  the LLVM test tools
#   %cflags-strict    warnings that emitted C must compile cleanly under
#   %gcc, %clang19    the two back ends the contract names, by path
import os
import shlex
import shutil

import lit.formats

config.name = "parcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".pc", ".c", ".test"]
config.excludes = ["Inputs", "bench", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.parcc_obj_root, "test")

san = " " + config.sanflags if config.sanflags else ""
# parcc turns stackless sync off under -fsanitize=address (reference.md):
# the sanitizer suite keeps the frames that the tests check and that every
# other build uses.
parcc_san = san + (" -fparc-stackless-sync" if config.sanitize == "address" else "")
timeout = "timeout -k 5 120"

config.environment["PARCC_CC"] = config.test_cc
for var in ("PARC_NPROCS", "PARC_STATS", "PARC_TRACE", "PARC_SCHED", "PARC_SEED", "PARC_PIN", "PARC_KILL"):
    config.environment.pop(var, None)
if config.sanitize == "thread":
    config.environment["TSAN_OPTIONS"] = "halt_on_error=1 second_deadlock_stack=1"
    config.available_features.add("tsan")
elif config.sanitize == "address":
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("asan")
if config.clang19:
    config.available_features.add("clang19")
# Build tools that some driver tests run parcc under.
for tool in ("ccache", "cmake", "ninja", "make"):
    if shutil.which(tool):
        config.available_features.add(tool)
# csmith and its headers, for tools/csmith-run.sh.
csmith = shutil.which("csmith")
if csmith and os.path.exists(os.path.join(os.path.dirname(csmith), "..", "include", "csmith", "csmith.h")):
    config.available_features.add("csmith")
# gdb, for the tests of stepping through constructs (not a dependency).
if shutil.which("gdb"):
    config.available_features.add("gdb")
# libparc built with line tables (-DPARCC_RUNTIME_LINE_INFO=ON).
if config.runtime_line_info.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("runtime-line-info")
# Valgrind runs only programs built without a sanitizer.
if shutil.which("valgrind") and not config.sanitize:
    config.available_features.add("valgrind")
# The sanitizer builds of the runtime, built when the C compiler can.
for lib in ("parc-asan", "parc-tsan"):
    if os.path.exists(os.path.join(config.runtime_lib_dir, "lib%s.a" % lib)):
        config.available_features.add("lib" + lib)

runtime_cc = "%s -std=gnu11 -Wall -Wextra -Werror -g -O1%s -I%s %%s -L%s -lparc %s -o %%t" % (
    config.test_cc, san, config.runtime_include, config.runtime_lib_dir, config.runtime_libs)

# Cross mode (tools/cross-check.sh): the hand-lowered runtime tests, built by
# a cross compiler against a libparc built for its machine, run under an
# emulator.  %t is then a script that runs the program (%t.bin) under the
# emulator with exec (tools/cross-cc.py), so the tests' own command lines,
# exit statuses and signals stay as they are.  Only .c tests that use
# %cc-runtime run; a test that cannot run under the emulator says
# `UNSUPPORTED: cross` and why.
cross_cc = lit_config.params.get("cross_cc")
if cross_cc:
    cross_lib = lit_config.params["cross_lib"]
    cross_run = lit_config.params["cross_run"]
    config.available_features.add("cross")
    config.suffixes = [".c"]
    config.test_exec_root = os.path.join(config.parcc_obj_root, "test-cross")
    runtime_cc = "%s %s %s %s -- -std=gnu11 -Wall -Wextra -Werror -g -O1 -I%s %%s -L%s -lparc -lpthread -o %%t" % (
        config.python, os.path.join(config.parcc_src_root, "tools", "cross-cc.py"), shlex.quote(cross_cc),
        shlex.quote(cross_run), config.runtime_include, cross_lib)

# Longer names first: lit substitutes in order, so %run must not see
# %runtime-include, nor %parcc see %parcc-clang.
config.substitutions.append(("%runtime-include", config.runtime_include))
config.substitutions.append(("%runtime-lib-dir", config.runtime_lib_dir))
config.substitutions.append(("%abi-names", os.path.join(config.parcc_obj_root, "compiler", "include",
                                                        "parcc", "AbiNames.inc")))
config.substitutions.append(("%clang19", config.clang19 or "clang-19"))
config.substitutions.append(("%gcc", shutil.which("gcc") or "gcc"))
config.substitutions.append(("%parcc-path", config.parcc))  # the executable alone
config.substitutions.append(("%parcc-clang", "%s --cc=%s%s" % (config.parcc, config.clang19, parcc_san)))
config.substitutions.append(("%parcc", config.parcc + parcc_san))
config.substitutions.append(("%cc-runtime", runtime_cc))
config.substitutions.append(("%run-1", "env PARC_NPROCS=1 %s" % timeout))
config.substitutions.append(("%run-2", "env PARC_NPROCS=2 %s" % timeout))
config.substitutions.append(("%run-4", "env PARC_NPROCS=4 %s" % timeout))
config.substitutions.append(("%run-8", "env PARC_NPROCS=8 %s" % timeout))
config.substitutions.append(("%run", timeout))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
config.substitutions.append(("%cflags-strict", "-std=gnu17 -Wall -Wextra -Werror"))
config.substitutions.append(("%srcroot", config.parcc_src_root))
config.substitutions.append(("%python", config.python))
