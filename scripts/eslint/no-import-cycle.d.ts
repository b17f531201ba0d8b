import type { Rule } from 'eslint';

export declare const noImportCycle: Rule.RuleModule;
export declare function runtimeSpecifiers(fileName: string, text: string): string[];
