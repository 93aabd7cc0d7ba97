# ppekit_petsc.m4: find PETSc and its compiler.
#
# PPE_PETSC_LOCATE (before AC_PROG_CC)
#   Order: --with-petsc=DIR, else $PETSC_DIR[/$PETSC_ARCH], else the PETSc
#   pkg-config file on the default search path. Sets PKG_CONFIG_PATH so that
#   `pkg-config PETSc` answers for the chosen installation, and CC to PETSc's
#   MPI compiler unless the user set CC.
#
# PPE_PETSC_CHECK (after AC_PROG_CC)
#   Checks the version (>= 3.18), the scalar type (real, double), compiles and
#   links a PETSc program. Sets PETSC_CFLAGS, PETSC_LIBS, PETSC_VERSION_MIN.

AC_DEFUN([PPE_PETSC_LOCATE], [
  AC_ARG_WITH([petsc],
    AS_HELP_STRING([--with-petsc=DIR], [PETSc installation (default: $PETSC_DIR/$PETSC_ARCH, else pkg-config PETSc)]),
    [], [with_petsc=check])
  AC_ARG_VAR([PETSC_DIR], [PETSc installation or source tree])
  AC_ARG_VAR([PETSC_ARCH], [PETSc build inside PETSC_DIR])
  PKG_PROG_PKG_CONFIG
  AS_IF([test "x$with_petsc" = xno], [AC_MSG_ERROR([PPEKit cannot be built without PETSc])])
  ppe_petsc_root=""
  AS_IF([test "x$with_petsc" != xcheck && test "x$with_petsc" != xyes],
        [ppe_petsc_root="$with_petsc"],
        [test -n "$PETSC_DIR"],
        [ppe_petsc_root="$PETSC_DIR"; test -n "$PETSC_ARCH" && ppe_petsc_root="$PETSC_DIR/$PETSC_ARCH"])
  ppe_petsc_pcname=PETSc
  AS_IF([test -n "$ppe_petsc_root"], [
    ppe_petsc_pcdir=""
    for ppe_d in "$ppe_petsc_root/lib/pkgconfig" "$ppe_petsc_root/lib64/pkgconfig"; do
      for ppe_n in PETSc petsc; do
        AS_IF([test -z "$ppe_petsc_pcdir" && test -f "$ppe_d/$ppe_n.pc"],
              [ppe_petsc_pcdir="$ppe_d"; ppe_petsc_pcname="$ppe_n"])
      done
    done
    AS_IF([test -z "$ppe_petsc_pcdir"],
          [AC_MSG_ERROR([no PETSc.pc or petsc.pc under $ppe_petsc_root/lib/pkgconfig: is $ppe_petsc_root a PETSc installation (or PETSC_DIR/PETSC_ARCH of a built tree)?])])
    PKG_CONFIG_PATH="$ppe_petsc_pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    export PKG_CONFIG_PATH
    ppe_petsc_source="$ppe_petsc_pcdir/$ppe_petsc_pcname.pc"
  ], [
    AS_IF([$PKG_CONFIG --exists PETSc], [ppe_petsc_pcname=PETSc],
          [$PKG_CONFIG --exists petsc], [ppe_petsc_pcname=petsc],
          [AC_MSG_ERROR([PETSc not found: install Debian's petsc-dev, or pass --with-petsc=DIR, or set PETSC_DIR (and PETSC_ARCH)])])
    ppe_petsc_source="pkg-config $ppe_petsc_pcname"
  ])
  AC_MSG_CHECKING([for PETSc's C compiler])
  ppe_petsc_cc=`$PKG_CONFIG --variable=ccompiler $ppe_petsc_pcname 2>/dev/null`
  AS_IF([test -z "$CC" && test -n "$ppe_petsc_cc"], [CC="$ppe_petsc_cc"])
  AC_MSG_RESULT([${ppe_petsc_cc:-unknown}, using ${CC:-the default}])
])

AC_DEFUN([PPE_PETSC_CHECK], [
  AC_MSG_CHECKING([PETSc version])
  ppe_petsc_version=`$PKG_CONFIG --modversion $ppe_petsc_pcname`
  AC_MSG_RESULT([$ppe_petsc_version])
  PETSC_CFLAGS=`$PKG_CONFIG --cflags $ppe_petsc_pcname`
  PETSC_LIBS=`$PKG_CONFIG --libs $ppe_petsc_pcname`
  dnl nvcc rejects some of PETSc's flags (-Wdate-time): keep the -I part apart.
  PETSC_INCLUDES=`$PKG_CONFIG --cflags-only-I $ppe_petsc_pcname`
  ppe_petsc_libdir=`$PKG_CONFIG --variable=libdir $ppe_petsc_pcname`
  AC_SUBST([PETSC_CFLAGS])
  AC_SUBST([PETSC_LIBS])
  AC_SUBST([PETSC_INCLUDES])
  AC_SUBST([PETSC_PCNAME], [$ppe_petsc_pcname])
  AC_SUBST([PETSC_VERSION_MIN], [3.18])

  ppe_save_CPPFLAGS="$CPPFLAGS"; ppe_save_LIBS="$LIBS"
  CPPFLAGS="$CPPFLAGS $PETSC_CFLAGS"; LIBS="$PETSC_LIBS $LIBS"
  AC_MSG_CHECKING([whether PETSc is 3.18 or newer with real double scalars])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if !PETSC_VERSION_GE(3, 18, 0)
#error PETSc older than 3.18
#endif
#if !defined(PETSC_USE_REAL_DOUBLE) || defined(PETSC_USE_COMPLEX)
#error PPEKit needs real double-precision scalars
#endif
]], [[]])], [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([PPEKit needs PETSc >= 3.18 configured with real double-precision scalars (found $ppe_petsc_version from $ppe_petsc_source)])])
  AC_MSG_CHECKING([whether a PETSc program links])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <petscksp.h>]],
                  [[KSP ksp; (void)KSPCreate(PETSC_COMM_SELF, &ksp);]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([cannot link against PETSc with "$PETSC_LIBS" using $CC (see config.log)])])
  dnl PPEKit calls LAPACK through PETSc's wrappers: link the LAPACK PETSc uses.
  AC_MSG_CHECKING([for the BLAS/LAPACK PETSc was built with])
  ppe_petsc_vars="$ppe_petsc_libdir/petsc/conf/petscvariables"
  LAPACK_LIBS=""
  AS_IF([test -f "$ppe_petsc_vars"],
        [LAPACK_LIBS=`sed -n 's/^BLASLAPACK_LIB *= *//p' "$ppe_petsc_vars" | head -n 1`])
  AS_IF([test -z "$LAPACK_LIBS"], [LAPACK_LIBS="-llapack -lblas"])
  AC_MSG_RESULT([$LAPACK_LIBS])
  LIBS="$LAPACK_LIBS $LIBS"
  AC_MSG_CHECKING([whether LAPACK links])
  AC_LINK_IFELSE([AC_LANG_CALL([], [dsyev_])], [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([cannot link LAPACK with "$LAPACK_LIBS" (set LAPACK_LIBS)])])
  AC_SUBST([LAPACK_LIBS])
  AC_MSG_CHECKING([whether PETSc was built with hypre])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if !defined(PETSC_HAVE_HYPRE)
#error no hypre
#endif
]], [[]])], [ppe_petsc_has_hypre=yes], [ppe_petsc_has_hypre=no])
  AC_MSG_RESULT([$ppe_petsc_has_hypre])
  AC_MSG_CHECKING([whether PETSc was built with CUDA])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if !defined(PETSC_HAVE_CUDA)
#error no cuda
#endif
]], [[]])], [ppe_petsc_has_cuda=yes], [ppe_petsc_has_cuda=no])
  AC_MSG_RESULT([$ppe_petsc_has_cuda])
  AC_MSG_CHECKING([whether PETSc was built with HIP])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if !defined(PETSC_HAVE_HIP)
#error no hip
#endif
]], [[]])], [ppe_petsc_has_hip=yes], [ppe_petsc_has_hip=no])
  AC_MSG_RESULT([$ppe_petsc_has_hip])
  CPPFLAGS="$ppe_save_CPPFLAGS"; LIBS="$ppe_save_LIBS"
])
