/**
 * Marks in the viewport for what an editor selected: a named selection's points and faces, a
 * proxy's position and axes, one row of an array table. Drawn over the model (depth test off) in
 * a bright colour, so marks inside or behind the mesh still show.
 */
import * as THREE from 'three';
import type { Highlight } from '../../shared/model/editor-query.ts';

export const HIGHLIGHT_COLOR = 0xff3df0;

/** Three.js objects for a highlight, in the model root's space (the caller places the group). */
export function buildHighlight(h: Highlight): THREE.Group {
  const g = new THREE.Group();
  g.name = 'highlight';
  if (h.triangles?.length) {
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.BufferAttribute(h.triangles, 3));
    const mesh = new THREE.Mesh(geo, new THREE.MeshBasicMaterial({ color: HIGHLIGHT_COLOR, transparent: true, opacity: 0.45, side: THREE.DoubleSide, depthTest: false, depthWrite: false }));
    mesh.renderOrder = 10;
    g.add(mesh);
    const edges = new THREE.LineSegments(new THREE.WireframeGeometry(geo), new THREE.LineBasicMaterial({ color: HIGHLIGHT_COLOR, depthTest: false }));
    edges.renderOrder = 11;
    g.add(edges);
  }
  if (h.lines?.length) {
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.BufferAttribute(h.lines, 3));
    // Proxy axes: x red, y green, z blue, as every 3D tool draws them; other lines in the mark colour.
    if (h.lines.length === 18) {
      const c = new Float32Array(18);
      [[1, 0.3, 0.3], [0.3, 1, 0.3], [0.35, 0.55, 1]].forEach((rgb, a) => c.set([...rgb, ...rgb], a * 6));
      geo.setAttribute('color', new THREE.BufferAttribute(c, 3));
    }
    const lines = new THREE.LineSegments(geo, new THREE.LineBasicMaterial({ color: h.lines.length === 18 ? 0xffffff : HIGHLIGHT_COLOR, vertexColors: h.lines.length === 18, depthTest: false }));
    lines.renderOrder = 12;
    g.add(lines);
  }
  if (h.points?.length) {
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.BufferAttribute(h.points, 3));
    const pts = new THREE.Points(geo, new THREE.PointsMaterial({ color: HIGHLIGHT_COLOR, size: 7, sizeAttenuation: false, depthTest: false }));
    pts.renderOrder = 13;
    g.add(pts);
  }
  return g;
}

export function disposeHighlight(g: THREE.Group): void {
  g.traverse((o) => {
    const x = o as THREE.Mesh;
    x.geometry?.dispose();
    const m = x.material as THREE.Material | THREE.Material[] | undefined;
    if (Array.isArray(m)) m.forEach((k) => k.dispose());
    else m?.dispose();
  });
}
