// The fuzz specs' generators, an entry point of their own (`@sts/testing/fuzz`):
// building fast-check's string arbitraries maps whole character ranges (about
// a second and 150 MB a spec file), which no other spec should pay for by
// importing `@sts/testing`.
export * from './error-shape';
export * from './hostile-values';
