/** Renderer entry: mounts the editor window. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import './styles/app.css';

async function start(): Promise<void> {
  // Development only: `?fake=a.lod,b.p3d` serves files from the dev server through an in-memory
  // document service, to work on the UI without the host process.
  if (import.meta.env.DEV) {
    const fake = new URLSearchParams(location.search).get('fake');
    if (fake !== null) {
      const { connectDevFake } = await import('./bridge/dev-fake.ts');
      await connectDevFake(fake.split(',').filter(Boolean));
    }
  }
  createApp(App).use(createPinia()).mount('#app');
}

void start();
