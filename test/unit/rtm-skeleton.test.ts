import { describe, expect, it } from 'vitest';
import { cfgSkeleton, cfgSkeletonNames } from '../../shared/formats/p3d/rtm/skeleton.ts';

describe('RTM skeletons from a model.cfg', () => {
  const cfg = `#define BONE(a, b) #a, #b
class CfgSkeletons {
  class Base { skeletonBones[] = { "pelvis", "" }; };
  class Man: Base { skeletonInherit = "Base"; skeletonBones[] = { BONE(spine, pelvis), "head", "spine" }; };
};`;
  it('reads macros and skeletonInherit through the model.cfg reader, inherited bones first', () => {
    expect(cfgSkeletonNames(cfg)).toEqual(['Base', 'Man']);
    expect(cfgSkeleton(cfg, 'man')).toEqual({ name: 'Man', bones: [{ name: 'pelvis', parent: '' }, { name: 'spine', parent: 'pelvis' }, { name: 'head', parent: 'spine' }] });
  });
  it('says what is there when the skeleton is missing or ambiguous, and names a bad inheritance', () => {
    expect(() => cfgSkeleton(cfg)).toThrow(/defines 2 skeletons; name one: Base, Man/);
    expect(() => cfgSkeleton(cfg, 'Woman')).toThrow(/no skeleton "Woman".*Base, Man/);
    expect(() => cfgSkeleton('class CfgSkeletons { class A { skeletonInherit = "Gone"; }; };', 'A')).toThrow(/inherits "Gone"/);
  });
});
