/** @module `defineTool` for the bookshop: handlers get the shop's services as `call.app`. */
import { defineToolFor } from 'agentready';
import type { Bookshop } from '../books.ts';

export const defineShopTool = defineToolFor<Bookshop>();
