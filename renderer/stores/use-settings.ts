/**
 * Editor settings that outlive a window: kept in the page's localStorage (per host and profile).
 * The decoding memory limit is the editor's side of the CLI's `--max-memory`: how much decoding
 * one file may allocate before it is refused (default 64 MiB + 16 x the file's size).
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';

const KEY = 'lodsmith.maxMemoryMiB';

/** The limits offered, in MiB (0: the default rule). */
export const MEMORY_CHOICES = [0, 256, 512, 1024, 2048, 4096, 8192] as const;

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage can be denied (sandboxed or private pages): the setting then lasts the session.
    return undefined;
  }
}

function load(): number {
  const v = Number(storage()?.getItem(KEY) ?? 0);
  return (MEMORY_CHOICES as readonly number[]).includes(v) ? v : 0;
}

export const useSettings = defineStore('settings', () => {
  /** Decoding memory limit in MiB; 0 means the default (64 MiB + 16 x the file's size). */
  const maxMemoryMiB = ref<number>(load());
  watch(maxMemoryMiB, (v) => storage()?.setItem(KEY, String(v)));
  /** The limit in bytes as `doc:open` takes it, or undefined for the default. */
  const maxMemoryBytes = computed(() => (maxMemoryMiB.value > 0 ? maxMemoryMiB.value * 1024 * 1024 : undefined));
  return { maxMemoryMiB, maxMemoryBytes };
});

/** `1 GiB`, `512 MiB`, `default`. */
export function memoryLabel(mib: number): string {
  if (mib === 0) return 'default (64 MiB + 16 × file size)';
  return mib >= 1024 ? `${mib / 1024} GiB` : `${mib} MiB`;
}
