# cmake -DSRC=<source root> -P reldirs.cmake: prints where an installed
# parcc looks for the runtime, for install layouts GNUInstallDirs can give.
include(${SRC}/cmake/ParccInstallDirs.cmake)
foreach(case "bin;lib" "bin;lib64" "bin;lib/x86_64-linux-gnu" "bin;include/parc"
             "libexec/parcc/bin;lib64" "bin;/opt/parc/lib" "/opt/bin;lib64" "lib;lib")
  list(GET case 0 bindir)
  list(GET case 1 dir)
  parcc_install_rel_dir(r "${bindir}" "${dir}" "/usr/local")
  message(STATUS "${bindir} -> ${dir}: ${r}")
endforeach()
