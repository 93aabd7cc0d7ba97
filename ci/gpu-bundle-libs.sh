# Sourced by ci/gpu-bundle.sh and ci/gpu-bundle-check.sh: the one list of the shared libraries
# a GPU bundle never carries, because the GPU machine has its own: the C library's (libc, libm,
# the loader, ...) and CUDA's (the toolkit's libraries, the driver's libcuda and NVML).
# ppe_machine_lib FILE: true when FILE (a path or a soname) is one of them.
ppe_machine_lib() {
  case $(basename "$1") in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libutil.so.* | libresolv.so.* | ld-linux*.so.* | linux-vdso.so.*) return 0 ;;
    libcuda.so.* | libnvidia-*.so.* | libcudart.so.* | libcufft*.so.* | libcublas*.so.* | libcusparse.so.* | libcusolver*.so.* | libcurand.so.* | libnvJitLink.so.* | libnvrtc*.so.* | libnvtx3interop.so.*) return 0 ;;
  esac
  return 1
}
