# ParccInstallDirs.cmake - where an installed parcc finds the installed
# runtime: its headers (INCLUDEDIR/parc) and libparc.a (LIBDIR), as paths
# relative to the directory of the parcc executable (BINDIR), so that an
# install tree can move.  GNUInstallDirs decides the directories: LIBDIR is
# lib64 on some systems, lib/<multiarch> on Debian with prefix /usr, or
# whatever -DCMAKE_INSTALL_LIBDIR says.
#
# parcc_install_rel_dir(<out> <bindir> <dir> <prefix>)
#   <out> = <dir> relative to <bindir> when both are relative to the prefix;
#   an absolute path when either is absolute (then the install tree cannot
#   move anyway: an absolute <dir> is used as it is, a relative <dir> under
#   an absolute <bindir> is <prefix>/<dir>).
function(parcc_install_rel_dir out bindir dir prefix)
  if(IS_ABSOLUTE "${dir}")
    set(r "${dir}")
  elseif(IS_ABSOLUTE "${bindir}")
    set(r "${prefix}/${dir}")
  else()
    # Any root does: both paths are below the same prefix.
    file(RELATIVE_PATH r "/parcc-prefix/${bindir}" "/parcc-prefix/${dir}")
    if(r STREQUAL "")
      set(r ".")
    endif()
  endif()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()
