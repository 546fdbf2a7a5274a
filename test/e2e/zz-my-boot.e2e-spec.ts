import { createApp } from '../../src/app.factory';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { connectionTimeouts } from '../../src/database/data-source.options';
import { useSeededDatabase } from '../setup/database';
describe('boot', () => {
  const database = useSeededDatabase();
  it('boots', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database().url, AUTH_DEV_KEY_FILE: '/tmp/zz-dev-key' });
    try {
      const app = await createApp({ config, database: { url: database().url, poolSize: 2, embedded: false, timeouts: connectionTimeouts(config) }, logger: createRootLogger('silent') }, { abortOnError: false });
      await app.close();
    } catch (error) {
      console.log('BOOT ERROR', (error as Error).message);
      throw error;
    }
  }, 60000);
});
