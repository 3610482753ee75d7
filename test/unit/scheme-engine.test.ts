import { describe, expect, it } from 'vitest';
import { evaluate, freeUnitsOf, nextSlabOf, percentOf, slabAt, type SchemeRule } from '../../src/domains/schemes/scheme-engine';
import { SchemeKind, SchemeScope, SchemeStatus, SchemeTarget, type SlabData } from '../../src/domains/schemes/scheme.entity';

const free = (min: number, qty: number, recursive = false): SlabData => ({ min_qty: min, free_qty: qty, free_variant_id: 1, recursive, discount_percent: null, discount_amount: null });

/** The arithmetic of schemes, without a database. */
describe('scheme engine', () => {
  it('rounds a percent half-up exactly, even on amounts beyond 2^53 / 10000', () => {
    expect(percentOf(1100, 250)).toBe(28); // 27.5 paise → 28
    expect(percentOf(1099, 250)).toBe(27);
    expect(percentOf(99_999_999_999_999, 10000)).toBe(99_999_999_999_999);
  });

  it('gives whole free units: floor, per slab, recursion only when asked', () => {
    expect(freeUnitsOf(free(10, 1, true), 15)).toBe(1);
    expect(freeUnitsOf(free(10, 1, true), 20)).toBe(2);
    expect(freeUnitsOf(free(10, 1, false), 20)).toBe(1);
    expect(freeUnitsOf(free(24, 2, true), 71)).toBe(4);
    expect(freeUnitsOf(free(10, 1, true), 9)).toBe(0);
    const slabs = [free(10, 1), free(20, 3)];
    expect(slabAt(slabs, 19)?.min_qty).toBe(10);
    expect(slabAt(slabs, 9)).toBeNull();
    expect(nextSlabOf(slabs, 17)).toEqual({ addQuantity: 3, minQty: 20, message: 'add 3 more for 3 free' });
    expect(nextSlabOf(slabs, 25)).toBeNull();
  });

  it('never counts free lines, and caps free units at a budget', () => {
    const rule: SchemeRule = {
      id: 1, code: 'X', name: 'X', kind: SchemeKind.FREE_GOODS, targetKind: SchemeTarget.VARIANT, targetId: 1, scope: SchemeScope.ALL, scopeIds: [],
      validFrom: '2026-01-01', validTo: null, priority: 0, stackable: false, status: SchemeStatus.ACTIVE, budgetKind: 2, budget: 5, used: 4, slabs: [free(10, 1, true)],
    };
    const e = evaluate({
      buyer: { id: 9, userType: 2, townId: null, routeId: null }, day: '2026-06-01',
      lines: [{ variantId: 1, productId: 1, productClassId: 1, quantity: 30, unitPaise: 1000 }], rules: [rule], freeVariants: new Map([[1, { active: true, unitPaise: 1000 }]]),
    });
    expect(e.free).toEqual([{ variantId: 1, quantity: 1, schemeId: 1 }]);
    expect(e.totalPaise).toBe(30_000);
  });
});
