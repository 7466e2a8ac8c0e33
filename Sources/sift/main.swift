import SiftTool

SiftCommand.main()
