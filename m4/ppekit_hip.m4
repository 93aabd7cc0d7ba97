# ppekit_hip.m4: HIP toolkit for the AMD device back end.
#
# PPE_HIP_CHECK (after PPE_PETSC_CHECK)
#   --with-hip[=DIR]   build the HIP back end; DIR holds bin/hipcc (default:
#                      $ROCM_PATH, /opt/rocm, then hipcc on PATH, e.g. Debian's)
#   --with-hip-arch=L  comma-separated gfx list (default: gfx90a)
#   Default: on only when PETSc was built with HIP. Asking for it without a
#   toolkit stops configure. Sets ppe_have_hip, HIPCC, HIPCCFLAGS, HIP_LIBS and the
#   conditional HAVE_HIP.

AC_DEFUN([PPE_HIP_CHECK], [
  AC_ARG_WITH([hip],
    AS_HELP_STRING([--with-hip@<:@=DIR@:>@], [build the HIP back end (default: only if PETSc has HIP)]),
    [], [with_hip=check])
  AC_ARG_WITH([hip-arch],
    AS_HELP_STRING([--with-hip-arch=LIST], [AMD GPU targets, e.g. gfx908,gfx90a (default: gfx90a)]),
    [], [with_hip_arch=gfx90a])
  AC_ARG_VAR([HIPCC], [HIP compiler])
  ppe_have_hip=no
  AS_IF([test "x$with_hip" = xcheck], [with_hip=$ppe_petsc_has_hip])
  AS_IF([test "x$with_hip" != xno], [
    AS_IF([test "x$with_hip" != xyes], [ppe_hip_path="$with_hip/bin"],
          [test -n "$ROCM_PATH"], [ppe_hip_path="$ROCM_PATH/bin:$PATH"],
          [ppe_hip_path="/opt/rocm/bin:$PATH"])
    AS_IF([test -z "$HIPCC"], [AC_PATH_PROG([HIPCC], [hipcc], [], [$ppe_hip_path])])
    AS_IF([test -z "$HIPCC"],
          [AC_MSG_ERROR([--with-hip given but no hipcc found in $ppe_hip_path: install ROCm (Debian: apt-get install hipcc) or pass --with-hip=DIR (the directory holding bin/hipcc)])])
    dnl PETSc's headers do not compile under hipcc with complex support on.
    HIPCCFLAGS="-O3 -fPIC -ffp-contract=off -DPETSC_SKIP_COMPLEX"
    for ppe_gfx in `echo $with_hip_arch | tr ',' ' '`; do
      HIPCCFLAGS="$HIPCCFLAGS --offload-arch=$ppe_gfx"
    done
    AC_MSG_CHECKING([whether $HIPCC compiles for $with_hip_arch])
    cat > conftest.hip.cxx <<_PPEEOF
#include <hip/hip_runtime.h>
__global__ void k(double *x) { x[[threadIdx.x]] *= 2.0; }
_PPEEOF
    AS_IF([$HIPCC $HIPCCFLAGS -x hip -c conftest.hip.cxx -o conftest.o >&AS_MESSAGE_LOG_FD 2>&1],
          [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([no]); AC_MSG_ERROR([$HIPCC cannot compile for $with_hip_arch (see config.log)])])
    rm -f conftest.hip.cxx conftest.o
    dnl VkFFT (header-only, Debian: libvkfft-dev) does PC fftptdma's device transforms.
    AC_MSG_CHECKING([for vkFFT.h (VkFFT)])
    cat > conftest.hip.cxx <<_PPEEOF
#define VKFFT_BACKEND 2
#include <hip/hiprtc.h>
#include <vkFFT.h>
int ppe_vk(void) { VkFFTApplication app = {}; deleteVkFFT(&app); return 0; }
_PPEEOF
    AS_IF([$HIPCC $HIPCCFLAGS -x hip -c conftest.hip.cxx -o conftest.o >&AS_MESSAGE_LOG_FD 2>&1],
          [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([no]); AC_MSG_ERROR([--with-hip needs VkFFT's header vkFFT.h with its HIP back end (Debian: apt-get install libvkfft-dev; see config.log)])])
    rm -f conftest.hip.cxx conftest.o
    HIP_LIBS="-lamdhip64 -lstdc++"
    ppe_have_hip=yes
  ])
  AC_SUBST([HIPCCFLAGS])
  AC_SUBST([HIP_LIBS])
  AM_CONDITIONAL([HAVE_HIP], [test "x$ppe_have_hip" = xyes])
])
