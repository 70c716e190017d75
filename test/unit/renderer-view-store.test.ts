/** The view store's up axis: per document, starting from the scene's guess, toggled by the user. */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { useView } from '../../renderer/stores/use-view.ts';
import { emptyScene, type Scene } from '../../shared/scene/scene.ts';

const zUp: Scene = { ...emptyScene(), upAxis: 'z' };
const unsaid: Scene = emptyScene();

beforeEach(() => setActivePinia(createPinia()));

describe('useView up axis', () => {
  it("starts from the scene's upAxis, and Y when the scene says nothing", () => {
    const view = useView();
    expect(view.upAxisOf('a', zUp)).toBe('z');
    expect(view.upAxisOf('b', unsaid)).toBe('y');
    expect(view.upAxisOf('c', null)).toBe('y');
  });

  it('toggles between Y and Z, per document', () => {
    const view = useView();
    expect(view.toggleUpAxis('a', zUp)).toBe('y');
    expect(view.upAxisOf('a', zUp)).toBe('y');
    expect(view.upAxisOf('b', zUp)).toBe('z');
    expect(view.toggleUpAxis('a', zUp)).toBe('z');
    expect(view.toggleUpAxis('b', unsaid)).toBe('z');
    expect(view.upAxisOf('b', unsaid)).toBe('z');
  });

  it("the user's choice outlives a rebuilt scene of the same document", () => {
    const view = useView();
    view.setUpAxis('a', 'y');
    expect(view.upAxisOf('a', { ...emptyScene(), upAxis: 'z' })).toBe('y');
    expect(view.upAxis.get('a')).toBe('y');
  });
});
