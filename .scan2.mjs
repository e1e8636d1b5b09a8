import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const files = execSync("grep -rlE 'expect' test --include=*.ts", { encoding: 'utf8' }).trim().split('\n');
let n = 0;
for (const f of files) {
  const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const m = node.expression.name.text;
      const target = node.expression.expression;
      if (['toBe', 'toBeTruthy', 'toBeFalsy', 'toEqual'].includes(m) && ts.isCallExpression(target) && target.expression.getText(sf) === 'expect' && target.arguments[0]) {
        const arg = target.arguments[0];
        const val = node.arguments[0]?.getText(sf);
        const boolish = m === 'toBeTruthy' || m === 'toBeFalsy' || val === 'true' || val === 'false';
        const compound = (a) => ts.isBinaryExpression(a) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken].includes(a.operatorToken.kind);
        const inner = ts.isParenthesizedExpression(arg) ? arg.expression : ts.isPrefixUnaryExpression(arg) ? arg.operand : arg;
        if (boolish && (compound(inner) || (ts.isParenthesizedExpression(inner) && compound(inner.expression)))) {
          n++; console.log(`${f}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText(sf).slice(0, 170)}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
console.log(n);
