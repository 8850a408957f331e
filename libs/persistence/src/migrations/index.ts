import { Foundation1763700000000 } from './1763700000000-foundation';

/** Every migration, in order. A new migration is a new timestamped file listed here. */
export const MIGRATIONS = [Foundation1763700000000];
