import React from 'react';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme/Layout';

const modules = [
  ['ROS 2 Fundamentals', '/docs/ros2-fundamentals'],
  ['Simulation & Digital Twins', '/docs/simulation/robot-description'],
  ['Perception', '/docs/perception'],
  ['Control & Locomotion', '/docs/control-and-locomotion/pid-control'],
  ['Vision-Language-Action Models', '/docs/vla-models/vla-foundations'],
  ['Humanoid Safety', '/docs/safety-first'],
];

export default function Home() {
  const {siteConfig} = useDocusaurusContext();
  return (
    <Layout title="Home" description={siteConfig.tagline}>
      <header className="hero hero--primary">
        <div className="container">
          <h1 className="hero__title">{siteConfig.title}</h1>
          <p className="hero__subtitle">{siteConfig.tagline}</p>
          <Link className="button button--secondary button--lg" to="/docs/intro">
            Start reading
          </Link>
        </div>
      </header>
      <main className="container margin-vert--lg">
        <h2>Modules</h2>
        <ol>
          {modules.map(([label, to]) => (
            <li key={to}>
              <Link to={to}>{label}</Link>
            </li>
          ))}
        </ol>
      </main>
    </Layout>
  );
}
