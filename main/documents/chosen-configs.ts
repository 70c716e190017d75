/**
 * The config files the user chose for models (the Animations panel's "Choose…"), remembered
 * across sessions as JSON in the user config folder: a modder who points a model at the
 * model.cfg of another folder should not have to do it again each time the model opens.
 * Keyed by the model's absolute path, most recent first, at most {@link CHOSEN_CONFIGS_LIMIT}.
 * Read once, on the first model that asks; written whole by a temporary file renamed over the
 * list, one change after another. An unreadable list counts as empty; a list that cannot be
 * written costs the memory, never the open or the choice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeStateFile } from './config-dir.ts';

/** How many models' choices are kept. */
export const CHOSEN_CONFIGS_LIMIT = 200;

export class ChosenConfigs {
  readonly file: string;
  /** model -> config, most recent first (a Map keeps insertion order). */
  private map: Map<string, string> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(configDir: string) {
    this.file = join(configDir, 'model-configs.json');
  }

  /** The config chosen for the model at `model`, if one was. */
  get(model: string): string | undefined {
    return this.read().get(model);
  }

  /** Remembers `config` for `model` (null: forgets the model's choice). Resolves once written. */
  set(model: string, config: string | null): Promise<void> {
    const map = this.read();
    const had = map.get(model);
    if (had === (config ?? undefined)) return this.writing;
    map.delete(model);
    if (config !== null) {
      // Most recent first: the oldest choices go when the list is full.
      const rest = [...map];
      map.clear();
      map.set(model, config);
      for (const [m, c] of rest.slice(0, CHOSEN_CONFIGS_LIMIT - 1)) map.set(m, c);
    }
    const snapshot = [...map];
    this.writing = this.writing.then(() => writeStateFile(this.file, { models: snapshot }));
    return this.writing;
  }

  private read(): Map<string, string> {
    if (!this.map) {
      this.map = new Map();
      try {
        const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { models?: unknown };
        const rows = Array.isArray(parsed?.models) ? parsed.models : [];
        for (const row of rows) {
          if (this.map.size >= CHOSEN_CONFIGS_LIMIT) break;
          if (Array.isArray(row) && typeof row[0] === 'string' && typeof row[1] === 'string' && row[0] && row[1] && !this.map.has(row[0])) this.map.set(row[0], row[1]);
        }
      } catch {
        /* no list yet, or not one: nothing remembered */
      }
    }
    return this.map;
  }
}
