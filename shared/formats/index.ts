/** Registers every codec. Import this module once to make all formats available. */
import { registerFormat } from './registry.ts';
import { odolCodec } from './p3d/odol/index.ts';
import { mlodCodec } from './p3d/mlod/codec.ts';
import { lodkaCodec } from './lodka/codec.ts';
import { grimrockAnimationCodec, grimrockModelCodec } from './grimrock/index.ts';
import { unigineAnimCodec, unigineMeshCodec } from './unigine/index.ts';
import { rtmCodec } from './p3d/rtm/codec.ts';

export * from './registry.ts';

// Each format folder exports its codec; add new ones here.
const codecs: Parameters<typeof registerFormat>[0][] = [odolCodec, mlodCodec, lodkaCodec, grimrockModelCodec, grimrockAnimationCodec, unigineMeshCodec, unigineAnimCodec, rtmCodec];
for (const c of codecs) registerFormat(c);
