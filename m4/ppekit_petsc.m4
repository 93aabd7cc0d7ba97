# ppekit_petsc.m4: find PETSc and its compiler.
#
# PPE_PETSC_LOCATE (before AC_PROG_CC)
#   Order: --with-petsc=DIR, else $PETSC_DIR[/$PETSC_ARCH], else the PETSc
#   pkg-config file on the default search path. Sets PKG_CONFIG_PATH so that
#   `pkg-config PETSc` answers for the chosen installation, and CC to PETSc's
#   MPI compiler unless the user set CC.
#
# PPE_PETSC_CHECK (after AC_PROG_CC)
#   Checks the version (3.18 or newer, from petscversion.h), the index size, the scalar
#   type and precision (real double: complex and other precisions are refused by name),
#   compiles and links a PETSc program. Sets PETSC_CFLAGS, PETSC_LIBS, PETSC_PCDIR,
#   PETSC_PREFIX, PETSC_VERSION_{MAJOR,MINOR,SUBMINOR}, PPE_PETSC_64BIT_INDICES,
#   LAPACK_LIBS, PETSC_HYPRE_INCLUDE (PETSc's own hypre headers, from petscvariables) and
#   ppe_petsc_has_{hypre,mumps,cuda,hip}.

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

# _PPE_PETSC_HAS(NAME, MACRO): ppe_petsc_has_<macro in lower case>=yes|no, whether PETSc's
# headers define PETSC_HAVE_<MACRO> (with PETSc's CPPFLAGS in place)
AC_DEFUN([_PPE_PETSC_HAS], [
  AC_MSG_CHECKING([whether PETSc was built with $1])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if !defined(PETSC_HAVE_$2)
#error no $1
#endif
]], [[]])], [ppe_petsc_has_[]m4_tolower([$2])=yes], [ppe_petsc_has_[]m4_tolower([$2])=no])
  AC_MSG_RESULT([$ppe_petsc_has_[]m4_tolower([$2])])
])

AC_DEFUN([PPE_PETSC_CHECK], [
  PETSC_CFLAGS=`$PKG_CONFIG --cflags $ppe_petsc_pcname`
  PETSC_LIBS=`$PKG_CONFIG --libs $ppe_petsc_pcname`
  ppe_petsc_libdir=`$PKG_CONFIG --variable=libdir $ppe_petsc_pcname`
  AC_SUBST([PETSC_CFLAGS])
  AC_SUBST([PETSC_LIBS])

  dnl the PETSc pkg-config directory, pinned into ppekit.pc and reported
  PETSC_PCDIR=`$PKG_CONFIG --variable=pcfiledir $ppe_petsc_pcname 2>/dev/null`
  AC_SUBST([PETSC_PCDIR])
  dnl its installation prefix (share/petsc/examples: PETSc's own programs, run by the tests)
  PETSC_PREFIX=`$PKG_CONFIG --variable=prefix $ppe_petsc_pcname 2>/dev/null`
  AC_SUBST([PETSC_PREFIX])

  ppe_save_CPPFLAGS="$CPPFLAGS"; ppe_save_LIBS="$LIBS"
  CPPFLAGS="$CPPFLAGS $PETSC_CFLAGS"; LIBS="$PETSC_LIBS $LIBS"
  dnl The version the headers say (pkg-config's may lag behind in a source tree)
  AC_MSG_CHECKING([PETSc's version from petscversion.h])
  AC_COMPUTE_INT([ppe_petsc_major], [PETSC_VERSION_MAJOR], [[#include <petscversion.h>]],
    [AC_MSG_ERROR([cannot compile a program that includes petscversion.h with "$PETSC_CFLAGS" (see config.log)])])
  AC_COMPUTE_INT([ppe_petsc_minor], [PETSC_VERSION_MINOR], [[#include <petscversion.h>]])
  AC_COMPUTE_INT([ppe_petsc_subminor], [PETSC_VERSION_SUBMINOR], [[#include <petscversion.h>]])
  ppe_petsc_version="$ppe_petsc_major.$ppe_petsc_minor.$ppe_petsc_subminor"
  AC_MSG_RESULT([$ppe_petsc_version])
  AS_IF([test "$ppe_petsc_major" -ne 3 || test "$ppe_petsc_minor" -lt 18],
        [AC_MSG_ERROR([PPEKit needs PETSc 3.18 or newer (3.18 through 3.25 are tested); found $ppe_petsc_version from $ppe_petsc_source])])
  AS_IF([test "$ppe_petsc_minor" -gt 25],
        [AC_MSG_WARN([PETSc $ppe_petsc_version is newer than the newest release PPEKit is tested with (3.25)])])
  AC_SUBST([PETSC_VERSION_MAJOR], [$ppe_petsc_major])
  AC_SUBST([PETSC_VERSION_MINOR], [$ppe_petsc_minor])
  AC_SUBST([PETSC_VERSION_SUBMINOR], [$ppe_petsc_subminor])

  AC_MSG_CHECKING([PETSc's index size])
  AC_COMPUTE_INT([ppe_petsc_intbytes], [(long)sizeof(PetscInt)], [[#include <petscsys.h>]],
    [AC_MSG_ERROR([cannot compile a PETSc program with "$PETSC_CFLAGS" (see config.log)])])
  ppe_petsc_indices="$((ppe_petsc_intbytes * 8))-bit"
  AC_MSG_RESULT([$ppe_petsc_indices PetscInt])
  PPE_PETSC_64BIT_INDICES=0; test "$ppe_petsc_intbytes" = 8 && PPE_PETSC_64BIT_INDICES=1
  AC_SUBST([PPE_PETSC_64BIT_INDICES])

  dnl PPEKit's operators, FFTs (real-to-real kinds) and tridiagonal solvers are real and its
  dnl kernels are written for double: complex or other precisions are refused, by name.
  AC_MSG_CHECKING([PETSc's scalar type])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if defined(PETSC_USE_COMPLEX)
#error complex
#endif
]], [[]])], [ppe_petsc_scalar=real], [ppe_petsc_scalar=complex])
  AC_MSG_RESULT([$ppe_petsc_scalar])
  AC_MSG_CHECKING([PETSc's precision])
  ppe_petsc_precision=unknown
  for ppe_p in DOUBLE SINGLE __FLOAT128 __FP16; do
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <petscsys.h>
#if !defined(PETSC_USE_REAL_$ppe_p)
#error not $ppe_p
#endif
]], [[]])], [ppe_petsc_precision=`echo $ppe_p | sed 's/^__//' | tr 'A-Z' 'a-z'`; break])
  done
  AC_MSG_RESULT([$ppe_petsc_precision])
  AS_IF([test "$ppe_petsc_scalar" != real],
        [AC_MSG_ERROR([PETSc $ppe_petsc_version from $ppe_petsc_source uses complex scalars (--with-scalar-type=complex). PPEKit's operators, transforms and tridiagonal solvers are real: use a PETSc built with real scalars (the default, --with-scalar-type=real)])])
  AS_IF([test "$ppe_petsc_precision" != double],
        [AC_MSG_ERROR([PETSc $ppe_petsc_version from $ppe_petsc_source uses $ppe_petsc_precision precision (--with-precision=$ppe_petsc_precision). PPEKit's kernels, FFTW plans and bitwise checks are written for double: use a PETSc built with double precision (the default, --with-precision=double)])])
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
  dnl the hypre headers PETSc was built with (Debian's petsc64 uses hypre64m, not hypre)
  PETSC_HYPRE_INCLUDE=""
  AS_IF([test -f "$ppe_petsc_vars"],
        [PETSC_HYPRE_INCLUDE=`sed -n 's/^HYPRE_INCLUDE *= *//p' "$ppe_petsc_vars" | head -n 1`])
  _PPE_PETSC_HAS([hypre], [HYPRE])
  _PPE_PETSC_HAS([MUMPS], [MUMPS])
  _PPE_PETSC_HAS([CUDA], [CUDA])
  _PPE_PETSC_HAS([HIP], [HIP])
  dnl for the tests: those that need an optional package of PETSc skip without it
  AC_SUBST([PPE_PETSC_HAS_HYPRE], [$ppe_petsc_has_hypre])
  AC_SUBST([PPE_PETSC_HAS_MUMPS], [$ppe_petsc_has_mumps])
  AC_SUBST([PPE_PETSC_VERSION], [$ppe_petsc_version])
  CPPFLAGS="$ppe_save_CPPFLAGS"; LIBS="$ppe_save_LIBS"
])
