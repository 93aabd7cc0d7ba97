# ppekit_cuda.m4: CUDA toolkit for the device back end.
#
# PPE_CUDA_CHECK (after PPE_PETSC_CHECK)
#   --with-cuda[=DIR]   build the CUDA back end; DIR holds bin/nvcc (default:
#                       $CUDA_HOME, /usr/local/cuda, then nvcc on PATH)
#   --with-cuda-arch=L  comma-separated SM list (default: 80,90)
#   Default: on only when PETSc was built with CUDA. Asking for it without a
#   toolkit stops configure. Sets ppe_have_cuda, NVCC, NVCCFLAGS, CUDA_CPPFLAGS,
#   CUDA_LIBS and the conditional HAVE_CUDA.

AC_DEFUN([PPE_CUDA_CHECK], [
  AC_ARG_WITH([cuda],
    AS_HELP_STRING([--with-cuda@<:@=DIR@:>@], [build the CUDA back end (default: only if PETSc has CUDA)]),
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    AS_HELP_STRING([--with-cuda-arch=LIST], [CUDA compute capabilities, e.g. 80,90 (default: 80,90)]),
    [], [with_cuda_arch=80,90])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  ppe_have_cuda=no
  AS_IF([test "x$with_cuda" = xcheck], [with_cuda=$ppe_petsc_has_cuda])
  AS_IF([test "x$with_cuda" != xno], [
    ppe_cuda_path="$PATH"
    AS_IF([test "x$with_cuda" != xyes], [ppe_cuda_root="$with_cuda"; ppe_cuda_path="$with_cuda/bin"],
          [test -n "$CUDA_HOME"], [ppe_cuda_root="$CUDA_HOME"; ppe_cuda_path="$CUDA_HOME/bin:$PATH"],
          [ppe_cuda_root=/usr/local/cuda; ppe_cuda_path="/usr/local/cuda/bin:$PATH"])
    AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$ppe_cuda_path])])
    AS_IF([test -z "$NVCC"],
          [AC_MSG_ERROR([--with-cuda given but no nvcc found in $ppe_cuda_path: install the CUDA toolkit or pass --with-cuda=DIR (the directory holding bin/nvcc)])])
    AS_IF([test "x$with_cuda" = xyes], [ppe_cuda_root=`AS_DIRNAME([$NVCC])`; ppe_cuda_root=`AS_DIRNAME([$ppe_cuda_root])`])
    ppe_cuda_libdir=""
    for ppe_d in "$ppe_cuda_root/lib64" "$ppe_cuda_root/lib" "$ppe_cuda_root/targets/x86_64-linux/lib"; do
      AS_IF([test -z "$ppe_cuda_libdir" && test -f "$ppe_d/libcudart.so"], [ppe_cuda_libdir="$ppe_d"])
    done
    AS_IF([test -z "$ppe_cuda_libdir"],
          [AC_MSG_ERROR([nvcc found ($NVCC) but no libcudart.so under $ppe_cuda_root/lib64: incomplete CUDA toolkit])])
    AS_IF([test ! -f "$ppe_cuda_libdir/libcufft.so" || test ! -f "$ppe_cuda_root/include/cufft.h"],
          [AC_MSG_ERROR([no cuFFT (libcufft.so, cufft.h) in the CUDA toolkit at $ppe_cuda_root: PC fftptdma's device transforms need it])])
    CUDA_CPPFLAGS="-I$ppe_cuda_root/include"
    dnl Never -lcuda: machines without a driver only have a stub of it.
    CUDA_LIBS="-L$ppe_cuda_libdir -Wl,-rpath,$ppe_cuda_libdir -lcufft -lcudart -lstdc++"
    NVCCFLAGS="-O3 -std=c++17 -Xcompiler -fPIC --fmad=false"
    for ppe_sm in `echo $with_cuda_arch | tr ',' ' '`; do
      NVCCFLAGS="$NVCCFLAGS -gencode arch=compute_$ppe_sm,code=sm_$ppe_sm"
    done
    AC_MSG_CHECKING([whether $NVCC compiles for $with_cuda_arch])
    cat > conftest.cu <<_PPEEOF
__global__ void k(double *x) { x[[threadIdx.x]] *= 2.0; }
int main(void) { return 0; }
_PPEEOF
    AS_IF([$NVCC $NVCCFLAGS -c conftest.cu -o conftest.o >&AS_MESSAGE_LOG_FD 2>&1],
          [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([no]); AC_MSG_ERROR([$NVCC cannot compile for architectures $with_cuda_arch (see config.log)])])
    rm -f conftest.cu conftest.o
    ppe_have_cuda=yes
  ])
  AC_SUBST([NVCCFLAGS])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$ppe_have_cuda" = xyes])
])
