import { describe, expect, it } from 'vitest';
import {
  isVisualResolution,
  parseResolutionName,
  resolutionKind,
  resolutionName,
} from '../../shared/formats/p3d/resolution.ts';

describe('P3D LOD resolutions', () => {
  it('names visual LODs with three decimals, including float32 noise', () => {
    expect(resolutionName(1)).toBe('1.000');
    expect(resolutionName(0)).toBe('0.000');
    expect(resolutionName(Math.fround(0.15))).toBe('0.150');
    expect(resolutionName(Math.fround(10.5))).toBe('10.500');
    expect(resolutionKind(Math.fround(3.5))).toBe('visual');
  });

  it('names the special LODs as stored in files (float32)', () => {
    const cases: [number, string][] = [
      [1000, 'View Gunner'],
      [1100, 'View Pilot'],
      [1200, 'View Cargo'],
      [1e13, 'Geometry'],
      [2e13, 'Geometry Buoyancy'],
      [4e13, 'Geometry PhysX'],
      [1e15, 'Memory'],
      [2e15, 'LandContact'],
      [3e15, 'Roadway'],
      [4e15, 'Paths'],
      [5e15, 'HitPoints'],
      [6e15, 'ViewGeometry'],
      [7e15, 'FireGeometry'],
      [8e15, 'ViewCargoGeometry'],
      [9e15, 'ViewCargoFireGeometry'],
      [1e16, 'View Commander'],
      [1.1e16, 'ViewCommanderGeometry'],
      [1.3e16, 'ViewPilotGeometry'],
      [1.6e16, 'ViewGunnerFireGeometry'],
      [1.7e16, 'SubParts'],
      [1.8e16, 'ShadowVolume - View Cargo'],
      [2e16, 'ShadowVolume - View Gunner'],
      [2.1e16, 'Wreck'],
    ];
    for (const [v, name] of cases) {
      expect(resolutionName(Math.fround(v))).toBe(name);
      expect(resolutionName(v)).toBe(name);
      expect(parseResolutionName(name)).toBe(Math.fround(v));
    }
  });

  it('handles the ShadowVolume and Edit ranges', () => {
    expect(resolutionName(10000)).toBe('ShadowVolume 0');
    expect(resolutionName(10010)).toBe('ShadowVolume 10');
    expect(resolutionName(11000)).toBe('ShadowVolume 1000');
    expect(resolutionName(20000)).toBe('Edit 0');
    expect(resolutionName(20003)).toBe('Edit 3');
    expect(resolutionKind(10010)).toBe('shadow');
    expect(resolutionKind(20001)).toBe('edit');
    expect(parseResolutionName('ShadowVolume 0')).toBe(10000);
    expect(parseResolutionName('Edit 3')).toBe(20003);
    expect(parseResolutionName('shadow volume 10')).toBe(10010);
  });

  it('classifies kinds and visual LODs', () => {
    expect(resolutionKind(1e13)).toBe('geometry');
    expect(resolutionKind(7e15)).toBe('geometry');
    expect(resolutionKind(1e15)).toBe('memory');
    expect(resolutionKind(2e15)).toBe('special');
    expect(resolutionKind(1.9e16)).toBe('shadow');
    expect(resolutionKind(1e3)).toBe('view');
    expect(resolutionKind(-1)).toBe('unknown');
    expect(resolutionKind(Number.NaN)).toBe('unknown');
    expect(isVisualResolution(1)).toBe(true);
    expect(isVisualResolution(1100)).toBe(true);
    expect(isVisualResolution(1e13)).toBe(false);
    expect(isVisualResolution(10000)).toBe(false);
    expect(isVisualResolution(1e15)).toBe(false);
  });

  it('parses names loosely and numbers exactly as float32', () => {
    expect(parseResolutionName('1.000')).toBe(1);
    expect(parseResolutionName('0.150')).toBe(Math.fround(0.15));
    expect(parseResolutionName('1e13')).toBe(Math.fround(1e13));
    expect(parseResolutionName('View - Gunner')).toBe(1000);
    expect(parseResolutionName('Fire Geometry')).toBe(Math.fround(7e15));
    expect(parseResolutionName('memory')).toBe(Math.fround(1e15));
    expect(parseResolutionName('Hit-points')).toBe(Math.fround(5e15));
    expect(parseResolutionName('not a lod')).toBeUndefined();
    expect(parseResolutionName('')).toBeUndefined();
  });

  it('round-trips name -> value -> name for every visual step and range value', () => {
    for (const v of [0, 0.5, 1, 2.25, 999, 10000, 10999, 20000, 25000]) {
      const f = Math.fround(v);
      expect(parseResolutionName(resolutionName(f))).toBe(f);
    }
  });
});
