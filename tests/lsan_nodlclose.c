/* tests/lsan_nodlclose.c: an LD_PRELOAD shim for the sanitizer build's leak
 * check (.ci/run, README "Testing"): dlclose does nothing, so the plugins
 * Open MPI, PMIx and hwloc load stay mapped until LeakSanitizer runs at
 * exit and their allocations keep their library names, which
 * tests/lsan.supp matches (an unloaded plugin's frames would read
 * "<unknown module>" and match nothing). Build:
 *   cc -shared -fPIC -o lsan_nodlclose.so tests/lsan_nodlclose.c */
int dlclose(void *handle);

int dlclose(void *handle) {
  (void)handle;
  return 0;
}
