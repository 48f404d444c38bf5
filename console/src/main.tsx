import { render } from 'preact';
import { App } from './app.js';

const mount = document.getElementById('console');
if (mount) render(<App />, mount);
