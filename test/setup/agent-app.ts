import { createTestApp, TestApp } from './app';
import { useSeededDatabase } from './database';
import { FakeModel } from './fake-model';

/**
 * The app on its own clone of the seeded cohort, with a scripted model reached over HTTP: the set-up
 * every agent test shares. Call inside a `describe`; `env` adds to (or overrides) the model settings.
 */
export function useAgentApp(env: Record<string, string> = {}): { model: FakeModel; app: () => TestApp } {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp | undefined;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', ...env } });
  });
  afterAll(async () => {
    await sut?.close();
    await model.stop();
  });
  return {
    model,
    app: () => {
      if (!sut) throw new Error('useAgentApp: the app is made in beforeAll');
      return sut;
    },
  };
}
