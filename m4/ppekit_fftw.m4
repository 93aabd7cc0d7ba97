# ppekit_fftw.m4: FFTW 3 (serial and MPI), double precision.
#
# PPE_FFTW_CHECK
#   --with-fftw=DIR overrides the pkg-config file fftw3. fftw3_mpi has no
#   pkg-config file on Debian: found by a link test next to fftw3.
#   Sets FFTW_CFLAGS, FFTW_LIBS (both libraries).

AC_DEFUN([PPE_FFTW_CHECK], [
  AC_ARG_WITH([fftw],
    AS_HELP_STRING([--with-fftw=DIR], [FFTW 3 installation with fftw3_mpi (default: pkg-config fftw3)]),
    [], [with_fftw=check])
  AS_IF([test "x$with_fftw" = xno], [AC_MSG_ERROR([PPEKit needs FFTW 3 (fftw3 and fftw3_mpi)])])
  AS_IF([test "x$with_fftw" != xcheck && test "x$with_fftw" != xyes],
        [FFTW_CFLAGS="-I$with_fftw/include"; FFTW_LIBS="-L$with_fftw/lib -lfftw3"],
        [PKG_CHECK_MODULES([FFTW], [fftw3 >= 3.3], [],
          [AC_MSG_ERROR([FFTW 3 not found: install Debian's libfftw3-dev and libfftw3-mpi-dev, or pass --with-fftw=DIR])])])
  ppe_save_CPPFLAGS="$CPPFLAGS"; ppe_save_LIBS="$LIBS"
  CPPFLAGS="$CPPFLAGS $FFTW_CFLAGS"
  LIBS="$FFTW_LIBS $LIBS"
  AC_CHECK_HEADER([fftw3-mpi.h], [],
    [AC_MSG_ERROR([fftw3-mpi.h not found: install Debian's libfftw3-mpi-dev])])
  AC_CHECK_LIB([fftw3_mpi], [fftw_mpi_init], [FFTW_LIBS="-lfftw3_mpi $FFTW_LIBS"],
    [AC_MSG_ERROR([libfftw3_mpi not found: install Debian's libfftw3-mpi-dev])], [$FFTW_LIBS])
  CPPFLAGS="$ppe_save_CPPFLAGS"; LIBS="$ppe_save_LIBS"
  AC_SUBST([FFTW_CFLAGS])
  AC_SUBST([FFTW_LIBS])
])
