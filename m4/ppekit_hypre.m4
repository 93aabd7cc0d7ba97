# ppekit_hypre.m4: hypre, normally the one PETSc was built with.
#
# PPE_HYPRE_CHECK (after PPE_PETSC_CHECK)
#   --with-hypre=DIR  use the hypre in DIR for direct calls (headers + library)
#   default           hypre through PETSc when PETSc has it (PCHYPRE,
#                     MATHYPRESTRUCT); HYPRE_CFLAGS point at the headers PETSc
#                     names in its petscvariables (HYPRE_INCLUDE).
#   --without-hypre   do not use hypre even if PETSc has it.
#   Sets ppe_have_hypre, HYPRE_CFLAGS, HYPRE_LIBS.

AC_DEFUN([PPE_HYPRE_CHECK], [
  AC_ARG_WITH([hypre],
    AS_HELP_STRING([--with-hypre=DIR], [hypre installation (default: the hypre PETSc was built with)]),
    [], [with_hypre=check])
  HYPRE_CFLAGS=""; HYPRE_LIBS=""; ppe_have_hypre=no
  AS_CASE([$with_hypre],
    [no], [],
    [check|yes],
      [AS_IF([test "x$ppe_petsc_has_hypre" = xyes],
             [ppe_have_hypre=yes
              dnl PETSc's own hypre headers (petscvariables' HYPRE_INCLUDE): Debian's
              dnl petsc64 is built with hypre64m, whose HYPRE_Int is not hypre's
              HYPRE_CFLAGS="$PETSC_HYPRE_INCLUDE"
              AS_IF([test -z "$HYPRE_CFLAGS" && test -f /usr/include/hypre/HYPRE.h], [HYPRE_CFLAGS="-I/usr/include/hypre"])],
             [test "x$with_hypre" = xyes],
             [AC_MSG_ERROR([--with-hypre given but PETSc ($ppe_petsc_source) was built without hypre; pass --with-hypre=DIR])])],
    [AS_IF([test -f "$with_hypre/include/HYPRE.h"],
           [HYPRE_CFLAGS="-I$with_hypre/include"; HYPRE_LIBS="-L$with_hypre/lib -lHYPRE"; ppe_have_hypre=yes],
           [AC_MSG_ERROR([no HYPRE.h under $with_hypre/include])])])
  AC_SUBST([HYPRE_CFLAGS])
  AC_SUBST([HYPRE_LIBS])
])
