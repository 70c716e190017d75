/**
 * .rvmat stages: each stage's texture and role (by suffix, or a procedural texture's last
 * argument), the colour stage the preview falls back to, and the real rvmat of the corpus.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colourStage, describeStages, parseRvmat, stageRole } from '../../shared/formats/texture/rvmat.ts';
import { applyRvmatStages } from '../../main/documents/scene-textures.ts';
import { fsLookup, toSlash } from '../../main/documents/fs-lookup.ts';
import { corpusFiles, readBytes } from '../helpers/corpus.ts';

describe('rvmat', () => {
  it('roles from suffixes and procedural arguments', () => {
    expect(stageRole('a3\\data_f\\wall_co.paa')).toBe('colour');
    expect(stageRole('x\\glass_CA.paa')).toBe('colour');
    expect(stageRole('z\\ace\\IVBag_nohq.paa')).toBe('normal');
    expect(stageRole('z\\x_smdi.paa')).toBe('specular');
    expect(stageRole('a3\\data_f\\default_ti_ca.paa')).toBe('thermal');
    expect(stageRole('#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)')).toBe('detail');
    expect(stageRole('#(argb,8,8,3)color(0,0,0,0,MC)')).toBe('macro');
    expect(stageRole('#(argb,8,8,3)color(1,1,1,1,AS)')).toBe('ambient shadow');
    expect(stageRole('#(ai,64,64,1)fresnelGlass(2)')).toBe('other');
    expect(stageRole('x\\plain.paa')).toBe('other');
    expect(stageRole('a3\\data_f\\env_land_co.paa')).toBe('environment');
  });

  it('stages in order, only a stage\'s own texture (not a nested class\'s), comments skipped; Stage0 or a _co stage is the colour one', () => {
    const text = `
      // class Stage9 { texture = "commented_co.paa"; };
      class StageTI { texture = "a3\\data_f\\default_ti_ca.paa"; };
      class Stage1 { texture = "m\\a_nohq.paa"; uvSource = "tex"; class uvTransform { texture = "nested_co.paa"; }; };
      class Stage2 { class uvTransform { aside[] = {1,0,0}; }; texture = "#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)"; };
      class Stage3 { texture = "m\\b_co.paa"; };
      /* class Stage4 { texture = "block_co.paa"; }; */
    `;
    const stages = parseRvmat(text);
    expect(stages.map((s) => [s.name, s.role, s.procedural])).toEqual([
      ['StageTI', 'thermal', false], ['Stage1', 'normal', false], ['Stage2', 'detail', true], ['Stage3', 'colour', false],
    ]);
    expect(colourStage(stages)?.name).toBe('Stage3');
    expect(colourStage([...stages, { name: 'Stage0', texture: 'm\\c.paa', role: 'other', procedural: false }])?.name).toBe('Stage0');
    expect(describeStages(stages.slice(1, 3))).toBe('Stage1 normal (m\\a_nohq.paa), Stage2 detail (procedural)');
  });

  it('the corpus IVBag.rvmat: a normal map, procedural stages and the thermal one; no colour stage (the face names it)', () => {
    const f = corpusFiles('textured').find((p) => p.toLowerCase().endsWith('.rvmat'));
    if (!f) return;
    const stages = parseRvmat(new TextDecoder().decode(readBytes(f)));
    expect(stages.find((s) => s.name === 'Stage1')).toMatchObject({ role: 'normal', texture: 'z\\ace\\addons\\medical\\data\\IVBag_nohq.paa' });
    expect(stages.find((s) => s.name === 'StageTI')?.role).toBe('thermal');
    expect(stages.filter((s) => s.procedural).length).toBeGreaterThan(2);
    expect(colourStage(stages)).toBeUndefined();
  });

  it('a material whose faces name no texture takes its rvmat\'s colour stage, found like a texture', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodsmith-rvmat-'));
    try {
      mkdirSync(join(dir, 'Mod', 'Data'), { recursive: true });
      writeFileSync(join(dir, 'Mod', 'Data', 'Box.rvmat'), 'class Stage1 { texture = "mod\\data\\box_nohq.paa"; };\nclass Stage3 { texture = "mod\\data\\box_co.paa"; };\n');
      const scene = {
        nodes: [], meshes: [], clips: [],
        materials: [
          { name: 'P:\\mod\\data\\box.rvmat', color: [1, 1, 1, 1] as [number, number, number, number], rvmat: 'P:\\mod\\data\\box.rvmat' },
          { name: 'face', color: [1, 1, 1, 1] as [number, number, number, number], texture: 'mod\\data\\own_co.paa', rvmat: 'mod\\data\\box.rvmat' },
          { name: 'lost', color: [1, 1, 1, 1] as [number, number, number, number], rvmat: 'nowhere\\x.rvmat' },
        ],
      };
      const report = applyRvmatStages(scene, { modelDir: toSlash(join(dir, 'Mod', 'Data')), roots: [] }, fsLookup());
      expect(scene.materials[0]!.texture).toBe('mod\\data\\box_co.paa');
      expect(report[0]!.drawn?.name).toBe('Stage3');
      // The face's own texture wins.
      expect(scene.materials[1]!.texture).toBe('mod\\data\\own_co.paa');
      expect(report[1]!.drawn).toBeUndefined();
      expect(report[2]!.path).toBeUndefined();
      expect(scene.materials[2]!).not.toHaveProperty('texture');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
