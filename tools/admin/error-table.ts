import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { errorCatalogues } from '../../core/http/error-catalogue.js';
import { statusOfKind } from '../../core/http/error-statuses.js';

const root = join(import.meta.dirname, '..', '..');

/**
 * What each code means, read from the doc comment written above it in its catalogue (`<folder>/errors.ts`, the
 * object given to `errorCatalogue`). Read from the source rather than kept as strings, so the deployed bundles
 * carry no meanings.
 */
export function errorMeanings(): ReadonlyMap<string, string> {
  const meanings = new Map<string, string>();
  for (const { folder } of errorCatalogues) {
    const path = join(root, folder, 'errors.ts');
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && node.expression.getText(source) === 'errorCatalogue') {
        const [codes] = node.arguments;
        if (codes && ts.isObjectLiteralExpression(codes)) {
          for (const property of codes.properties) {
            if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.name)) continue;
            const comment = ts
              .getJSDocCommentsAndTags(property)
              .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
              .join(' ');
            meanings.set(property.name.text, comment.replace(/\s+/g, ' ').trim());
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return meanings;
}

/** docs/api.md's "Error codes" table (`npm run error-codes` prints it; test/error-codes.test.ts keeps it current). */
export function errorCodesTable(): string {
  const meanings = errorMeanings();
  const rows = errorCatalogues.flatMap(({ folder, entries }) =>
    entries.map(
      (entry) => `| \`${entry.code}\` | ${entry.kind} | ${statusOfKind[entry.kind]} | ${(meanings.get(entry.code) ?? '').replace(/\|/g, '\\|')} | ${folder} |`,
    ),
  );
  return ['| Code | Kind | Status | Meaning | Declared in |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
