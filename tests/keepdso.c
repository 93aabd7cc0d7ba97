/*
   Preloaded into the test programs of the sanitizer tree only (tests/lib.sh): dlclose() does
   nothing, so the shared objects OpenMPI loads and unloads during MPI_Init and MPI_Finalize
   (its MCA components) stay mapped until the process exits.

   Why: OpenMPI leaves allocations behind in those components. LeakSanitizer matches them
   against tests/lsan.supp by module name, and for a return address in an unloaded module it
   re-reads /proc/self/maps on every lookup. That made the leak check at exit cost about 3 s
   of system time per process, most of the sanitizer tree's run time. With the modules still
   mapped the lookups succeed, the check takes a fraction of a second, and the suppressions
   match the same leaks by the same names. Our own code and PETSc never dlclose() anything a
   test relies on being unloaded.
*/
int dlclose(void *handle);

int dlclose(void *handle)
{
  (void)handle;
  return 0;
}
