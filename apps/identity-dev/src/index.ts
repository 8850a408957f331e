// Entry point for other apps' specs (the fleet runs main.ts).
export { startIdentityDev, type RunningIdentityDev } from './bootstrap';
export { loadIdentityDevSettings } from './config/identity-dev.settings';
export { userIdOf, type SessionToken } from './tokens/session-tokens';
