/**
 * The seeded catalog is realistic enough to exercise every rule, and
 * consistent with rawdata-rules-v1's assumptions about it.
 */
import { describe, expect, it } from 'vitest';
import { PERMISSION_GROUPS } from '../src/domain/permission-groups.ts';
import { seededSourceMetadata } from '../src/domain/source-catalog.ts';
import { TARGET_ENVIRONMENTS } from '../src/domain/target-environments.ts';

const tables = seededSourceMetadata.tables;
const withColumns = tables.filter((table) => table.columns !== null);

describe('the seeded source catalog', () => {
  it('has at least 40 uniquely named tables across 5 owning units, versioned 2026-11-27', () => {
    expect(seededSourceMetadata.version).toBe('2026-11-27');
    expect(tables.length).toBeGreaterThanOrEqual(40);
    expect(new Set(tables.map((table) => table.name)).size).toBe(tables.length);
    expect(new Set(tables.map((table) => table.ownerUnit)).size).toBe(5);
    for (const table of tables) expect(table.name).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('covers what the rules need: missing metadata, event logs, classified and restricted tables, both methods, all frequencies', () => {
    expect(tables.filter((table) => table.columns === null).length).toBeGreaterThanOrEqual(1);
    expect(tables.filter((table) => table.kind === 'event_log').length).toBeGreaterThanOrEqual(1);
    expect(tables.filter((table) => table.dataLevel === 'restricted').length).toBeGreaterThanOrEqual(2);
    const classifiedPersonal = tables.filter(
      (table) => table.dataLevel === 'classified' && table.columns?.some((column) => column.sensitivity === 'personal_identifier'),
    );
    expect(classifiedPersonal.length).toBeGreaterThanOrEqual(3);
    expect(tables.filter((table) => table.columns?.some((column) => column.sensitivity === 'credit_bureau')).length).toBeGreaterThanOrEqual(3);
    expect(new Set(tables.map((table) => table.updateMethod))).toEqual(new Set(['append', 'refresh']));
    expect(new Set(tables.map((table) => table.updateFrequency))).toEqual(new Set(['daily', 'weekly', 'monthly']));
  });

  it('has the reference column each kind is kept by, and reference tables are refreshed', () => {
    for (const table of withColumns) {
      const names = table.columns!.map((column) => column.name);
      if (table.kind === 'transaction') expect(names, table.name).toContain('txn_date');
      if (table.kind === 'snapshot') expect(names, table.name).toContain('snapshot_date');
      if (table.kind === 'reference') expect(table.updateMethod, table.name).toBe('refresh');
    }
  });

  it('keeps personal and credit-bureau data in classified or restricted tables, each identifier typed', () => {
    for (const table of withColumns) {
      for (const column of table.columns!) {
        if (column.sensitivity !== 'none') expect(['classified', 'restricted'], `${table.name}.${column.name}`).toContain(table.dataLevel);
        expect(column.identifierType !== undefined, `${table.name}.${column.name}`).toBe(column.sensitivity === 'personal_identifier');
      }
    }
  });

  it('holds no e-mail address, and environments and groups are named by public handles only', () => {
    expect(JSON.stringify({ seededSourceMetadata, TARGET_ENVIRONMENTS, PERMISSION_GROUPS })).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+/);
    for (const group of PERMISSION_GROUPS) expect(group.id).toMatch(/^grp-[a-z-]+$/);
  });
});
