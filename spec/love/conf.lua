-- make test-love: a headless LÖVE game. No window, graphics or audio
-- module: love.run still runs love.load, then love.update every frame.
function love.conf(t)
    t.identity = "mintid-test"  -- the save folder, under $XDG_DATA_HOME/love
    t.window = false
    for _, name in ipairs { "window", "graphics", "audio", "sound", "image", "font", "video",
                            "joystick", "keyboard", "mouse", "touch", "physics" } do
        t.modules[name] = false
    end
end
