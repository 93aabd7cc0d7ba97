# ppekit_rpath.m4: run-time search paths to the libraries PPEKit links.
#
# PPE_RPATH (after every library check)
#   Every directory named with -L in PETSC_LIBS, LAPACK_LIBS, FFTW_LIBS, HYPRE_LIBS,
#   CUDA_LIBS and HIP_LIBS, other than the dynamic linker's default directories, becomes
#   -Wl,-rpath,DIR in PPE_RPATH_LDFLAGS: libppekit, ppe-solve and the tests start without
#   LD_LIBRARY_PATH against a PETSc (or FFTW, hypre) installed anywhere. The linker writes
#   them as RUNPATH, which LD_LIBRARY_PATH still overrides. --disable-rpath leaves them out.

AC_DEFUN([PPE_RPATH], [
  AC_ARG_ENABLE([rpath],
    AS_HELP_STRING([--disable-rpath], [do not record the library directories of PETSc, FFTW,
                    hypre and LAPACK in libppekit and the programs (default: record them)]),
    [], [enable_rpath=yes])
  AC_MSG_CHECKING([for the library directories to record as run-time paths])
  ppe_multiarch=`$CC -print-multiarch 2>/dev/null`
  ppe_sysdirs="/lib /lib64 /usr/lib /usr/lib64"
  AS_IF([test -n "$ppe_multiarch"], [ppe_sysdirs="$ppe_sysdirs /lib/$ppe_multiarch /usr/lib/$ppe_multiarch"])
  PPE_RPATH_DIRS=""
  for ppe_flag in $PETSC_LIBS $LAPACK_LIBS $FFTW_LIBS $HYPRE_LIBS $CUDA_LIBS $HIP_LIBS; do
    AS_CASE([$ppe_flag], [-L*], [], [continue])
    ppe_dir=`echo "$ppe_flag" | sed 's/^-L//'`
    AS_IF([test -d "$ppe_dir"], [ppe_dir=`cd "$ppe_dir" && pwd -P`], [continue])
    ppe_skip=no
    for ppe_s in $ppe_sysdirs $PPE_RPATH_DIRS; do
      AS_IF([test "x$ppe_dir" = "x$ppe_s"], [ppe_skip=yes])
    done
    AS_IF([test "$ppe_skip" = no], [PPE_RPATH_DIRS="$PPE_RPATH_DIRS $ppe_dir"])
  done
  PPE_RPATH_DIRS=`echo $PPE_RPATH_DIRS`
  PPE_RPATH_LDFLAGS=""
  AS_IF([test "x$enable_rpath" != xno],
        [for ppe_dir in $PPE_RPATH_DIRS; do PPE_RPATH_LDFLAGS="$PPE_RPATH_LDFLAGS -Wl,-rpath,$ppe_dir"; done
         AC_MSG_RESULT([${PPE_RPATH_DIRS:-none (all in the default search path)}])],
        [AC_MSG_RESULT([none (--disable-rpath)])])
  PPE_RPATH_LDFLAGS=`echo $PPE_RPATH_LDFLAGS`
  AC_SUBST([PPE_RPATH_DIRS])
  AC_SUBST([PPE_RPATH_LDFLAGS])
])
