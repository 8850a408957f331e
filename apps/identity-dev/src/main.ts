import { runService } from '@sts/platform';
import { startIdentityDev } from './bootstrap';
import { loadIdentityDevSettings } from './config/identity-dev.settings';

runService('identity-dev', async () => startIdentityDev(loadIdentityDevSettings()));
